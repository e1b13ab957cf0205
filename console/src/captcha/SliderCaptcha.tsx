import { useCallback, useEffect, useRef, useState } from 'react'
import type { KeyboardEvent, PointerEvent } from 'react'
import { Box, Button, LinearProgress, Typography } from '@mui/material'
import { api, tokens, type Schemas } from '../api'
import { PowExpired, solvePow, type PowChallenge } from './pow'
import { useLoginText } from '../i18n/login'

/** POST /api/auth/captcha `data`: the slider, drawn for a solved proof of work. */
type Slider = Schemas['CaptchaChallenge']
type Point = [number, number, number]
type State =
  | 'idle' // no account yet
  | 'working' // the proof of work
  | 'ready'
  | 'dragging'
  | 'verifying'
  | 'verified'
  | 'failed'

/**
 * The slider captcha, in three steps: a proof-of-work challenge for the account (GET
 * /api/auth/captcha), solved in Web Workers while the person types the password; the slider the
 * solution pays for (POST /api/auth/captcha); one attempt at it (POST /api/auth/captcha/verify).
 *
 * The piece moves by pointer drag (the track: [x, y, ms] per move) or by keyboard on the focused
 * handle (ArrowRight/ArrowLeft 1 px, with Shift 10 px, Enter checks; the track: [x, 0, ms] per key
 * event). A failed verify loads a new challenge. `account` (already debounced) starts the work
 * and restarts it when it changes; `onToken` receives the one-time login credential (or null).
 */
export function SliderCaptcha({
  account,
  onToken,
}: {
  account: string
  onToken: (token: string | null) => void
}) {
  const text = useLoginText().captcha
  // Read by the loading effect without restarting it on a language switch.
  const unprepared = useRef(text.unprepared)
  unprepared.current = text.unprepared
  const [slider, setSlider] = useState<Slider | null>(null)
  const [state, setState] = useState<State>('idle')
  const [x, setX] = useState(0)
  const [message, setMessage] = useState('')
  const [attempt, setAttempt] = useState(0)
  /** Parts of the proof of work solved, of how many. */
  const [progress, setProgress] = useState<[number, number] | null>(null)
  const drag = useRef<{ startX: number; startY: number; t0: number; track: Point[] } | null>(null)
  const keys = useRef<{ t0: number; track: Point[] } | null>(null)
  const position = useRef(0)

  const moveTo = (next: number) => {
    position.current = next
    setX(next)
  }

  // A new challenge whenever the account or the attempt changes; the running one is abandoned.
  useEffect(() => {
    setSlider(null)
    moveTo(0)
    setMessage('')
    onToken(null)
    drag.current = null
    keys.current = null
    if (!account) {
      setState('idle')
      return
    }
    setState('working')
    setProgress(null)
    const controller = new AbortController()
    const { signal } = controller
    ;(async () => {
      const device = tokens.device()
      // A challenge that expires before it is solved (a slow device) is replaced by a new one.
      for (;;) {
        const { data } = await api<{ pow: PowChallenge; level: number }>('auth/captcha', {
          query: { account },
          headers: device ? { 'X-Device-Token': device } : {},
          signal,
        })
        const counters = await solvePow(data.pow, signal, (solved, parts) =>
          setProgress([solved, parts])
        ).catch((error) => {
          if (error instanceof PowExpired) return 'expired' as const
          throw error
        })
        if (signal.aborted) return
        if (counters === 'expired') continue
        if (!counters) throw new Error(unprepared.current)
        const drawn = await api<Slider>('auth/captcha', {
          method: 'POST',
          body: { pow: { challenge: data.pow, solution: { counters } } },
          signal,
        })
        if (signal.aborted) return
        setSlider(drawn.data)
        setState('ready')
        return
      }
    })().catch((error: Error) => {
      if (signal.aborted) return
      setMessage(error.message)
      setState('failed')
    })
    return () => controller.abort()
  }, [account, attempt, onToken])

  const reload = useCallback(() => setAttempt((n) => n + 1), [])

  // A slider left undragged, or a credential left unused, until it expires is replaced by a new
  // one (the work starts again by itself; the person is not sent back to a dead puzzle).
  const [credentialTtl, setCredentialTtl] = useState(0)
  useEffect(() => {
    const seconds = state === 'ready' ? slider?.expiresIn : state === 'verified' ? credentialTtl : 0
    if (!seconds) return
    const timer = setTimeout(reload, Math.max(1, seconds - 2) * 1000)
    return () => clearTimeout(timer)
  }, [state, slider, credentialTtl, reload])

  const maxX = slider ? slider.width - slider.pieceSize : 0

  const verify = async (track: Point[], input: 'pointer' | 'keyboard') => {
    if (!slider) return
    setState('verifying')
    try {
      const { data } = await api<Schemas['CaptchaCredential']>('auth/captcha/verify', {
        method: 'POST',
        body: { captchaId: slider.captchaId, x: position.current, track, input },
      })
      setState('verified')
      setMessage(text.verified)
      setCredentialTtl(data.expiresIn)
      onToken(data.captchaToken)
    } catch {
      // The slider is spent whatever went wrong: show why briefly, then a new challenge.
      setState('failed')
      setMessage(text.failed)
      setTimeout(reload, 800)
    }
  }

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (state !== 'ready') return
    event.currentTarget.setPointerCapture(event.pointerId)
    // The drag continues from where the keys left the piece; it replaces their track.
    keys.current = null
    drag.current = {
      startX: event.clientX - position.current,
      startY: event.clientY,
      t0: event.timeStamp,
      track: [[position.current, 0, 0]],
    }
    setMessage('')
    setState('dragging')
  }

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const current = drag.current
    if (!current) return
    const next = Math.min(Math.max(event.clientX - current.startX, 0), maxX)
    current.track.push([
      Math.round(next * 100) / 100,
      Math.round(event.clientY - current.startY),
      Math.round(event.timeStamp - current.t0),
    ])
    moveTo(Math.round(next * 100) / 100)
  }

  const onPointerUp = () => {
    const current = drag.current
    drag.current = null
    if (current) verify(current.track, 'pointer')
  }

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (state !== 'ready') return
    if (event.key === 'Enter') {
      event.preventDefault()
      const current = keys.current
      keys.current = null
      if (current) verify(current.track, 'keyboard')
      return
    }
    const direction = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
    if (!direction) return
    event.preventDefault()
    const next = Math.min(
      Math.max(Math.round(position.current) + direction * (event.shiftKey ? 10 : 1), 0),
      maxX
    )
    keys.current ??= { t0: event.timeStamp, track: [] }
    keys.current.track.push([next, 0, Math.round(event.timeStamp - keys.current.t0)])
    setMessage('')
    moveTo(next)
  }

  const width = slider?.width ?? 320
  const height = slider?.height ?? 160
  const handle = slider?.pieceSize ?? 50
  // A challenge that could not be loaded (a refused device token, a limit): said over the picture,
  // where a sentence fits, not on the one-line hint.
  const loadFailure = state === 'failed' && !slider ? message : ''
  const hint =
    (loadFailure ? '' : message) ||
    {
      idle: text.idle,
      working: progress
        ? text.progress
            .replace('{solved}', String(progress[0]))
            .replace('{parts}', String(progress[1]))
        : text.working,
      ready: text.ready,
      dragging: '',
      verifying: text.verifying,
      verified: text.verified,
      failed: '',
    }[state]
  return (
    <Box
      data-testid="captcha"
      data-captcha-state={state}
      data-pow={slider ? 'solved' : state === 'working' ? 'pending' : 'none'}
      sx={{ width, userSelect: 'none' }}
    >
      <Box
        sx={{
          position: 'relative',
          width,
          height,
          bgcolor: 'grey.200',
          borderRadius: 1,
          overflow: 'hidden',
        }}
      >
        {slider ? (
          <>
            <img
              src={slider.backgroundImage}
              width={width}
              height={height}
              alt="captcha background"
              draggable={false}
            />
            <img
              src={slider.pieceImage}
              alt="captcha piece"
              draggable={false}
              style={{
                position: 'absolute',
                left: x,
                top: slider.pieceY,
                width: slider.pieceSize,
                height: slider.pieceSize,
              }}
            />
          </>
        ) : (
          <Box
            sx={{
              position: 'absolute',
              inset: 0,
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'center',
              justifyContent: 'center',
              gap: 1,
              px: 3,
            }}
          >
            {state === 'working' && (
              <LinearProgress
                data-testid="captcha-progress"
                aria-label={text.working}
                variant={progress ? 'determinate' : 'indeterminate'}
                value={progress ? (100 * progress[0]) / progress[1] : undefined}
                sx={{ width: '60%' }}
              />
            )}
            {loadFailure && (
              <Typography
                variant="body2"
                color="error"
                align="center"
                role="alert"
                data-testid="captcha-error"
              >
                {loadFailure}
              </Typography>
            )}
            {state === 'failed' && (
              <Button size="small" onClick={reload}>
                {text.retry}
              </Button>
            )}
          </Box>
        )}
      </Box>
      <Box
        sx={{
          position: 'relative',
          mt: 1,
          height: handle,
          width,
          bgcolor: 'grey.100',
          border: 1,
          borderColor: 'grey.300',
          borderRadius: 1,
        }}
      >
        <Typography
          variant="body2"
          color="text.secondary"
          aria-live="polite"
          sx={{
            position: 'absolute',
            inset: 0,
            // Beside the handle at rest, not under it.
            left: handle,
            textAlign: 'center',
            lineHeight: `${handle}px`,
            whiteSpace: 'nowrap',
          }}
        >
          {hint}
        </Typography>
        <Box
          data-testid="captcha-handle"
          role="slider"
          tabIndex={0}
          aria-label={text.handle}
          aria-valuemin={0}
          aria-valuemax={maxX}
          aria-valuenow={Math.round(x)}
          aria-disabled={state !== 'ready'}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onKeyDown={onKeyDown}
          sx={{
            'position': 'absolute',
            'top': -1,
            'left': x,
            'width': handle,
            'height': handle,
            'borderRadius': 1,
            'touchAction': 'none',
            'cursor': state === 'ready' || state === 'dragging' ? 'grab' : 'default',
            'bgcolor':
              state === 'verified'
                ? 'success.main'
                : state === 'failed'
                  ? 'error.main'
                  : slider
                    ? 'primary.main'
                    : 'grey.400',
            'color': 'white',
            'display': 'flex',
            'alignItems': 'center',
            'justifyContent': 'center',
            'fontWeight': 'bold',
            'outlineOffset': 2,
            '&:focus-visible': { outline: '3px solid', outlineColor: 'primary.dark' },
          }}
        >
          {state === 'verified' ? '✓' : '→'}
        </Box>
      </Box>
    </Box>
  )
}

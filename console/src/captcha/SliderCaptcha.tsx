import { useCallback, useEffect, useRef, useState } from 'react'
import type { PointerEvent } from 'react'
import { Box, Typography } from '@mui/material'
import { api } from '../api'

/** GET /api/auth/captcha `data`. */
type Challenge = {
  captchaId: string
  backgroundImage: string
  pieceImage: string
  pieceY: number
  width: number
  height: number
  pieceSize: number
  pow: { algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string }
}
type Point = [number, number, number]
type State = 'loading' | 'ready' | 'dragging' | 'verifying' | 'verified' | 'failed'

/** Starts the proof of work in a Web Worker; resolves with the solution the verify call needs. */
function solvePow(pow: Challenge['pow']) {
  const worker = new Worker(new URL('./pow.worker.ts', import.meta.url), { type: 'module' })
  const solution = new Promise<Challenge['pow'] & { number: number }>((resolve, reject) => {
    worker.onmessage = (event) => {
      worker.terminate()
      if (event.data === null) reject(new Error('proof of work not solved'))
      else resolve({ ...pow, number: event.data })
    }
    worker.onerror = (error) => reject(error)
    worker.postMessage(pow)
  })
  return { solution, cancel: () => worker.terminate() }
}

/**
 * The slider captcha: the person drags the piece to the gap. The drag track ([x, y, ms] points)
 * is recorded and sent with the drop position and the proof of work, which a Web Worker solves
 * from the moment the challenge arrives, while the person drags. One attempt per challenge: a
 * failed verify loads a new one. `onToken` receives the one-time login credential (or null).
 */
export function SliderCaptcha({ onToken }: { onToken: (token: string | null) => void }) {
  const [challenge, setChallenge] = useState<Challenge | null>(null)
  const [state, setState] = useState<State>('loading')
  const [powSolved, setPowSolved] = useState(false)
  const [x, setX] = useState(0)
  const [message, setMessage] = useState('')
  const pow = useRef<ReturnType<typeof solvePow> | null>(null)
  const drag = useRef<{ startX: number; startY: number; t0: number; track: Point[] } | null>(null)

  const load = useCallback(async () => {
    pow.current?.cancel()
    setState('loading')
    setPowSolved(false)
    setX(0)
    onToken(null)
    try {
      const { data } = await api<Challenge>('auth/captcha')
      pow.current = solvePow(data.pow)
      pow.current.solution.then(() => setPowSolved(true)).catch(() => undefined)
      setChallenge(data)
      setState('ready')
    } catch (error) {
      setMessage((error as Error).message)
      setState('failed')
    }
  }, [onToken])

  useEffect(() => {
    load()
    return () => pow.current?.cancel()
  }, [load])

  const maxX = challenge ? challenge.width - challenge.pieceSize : 0

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (state !== 'ready') return
    event.currentTarget.setPointerCapture(event.pointerId)
    drag.current = {
      startX: event.clientX,
      startY: event.clientY,
      t0: event.timeStamp,
      track: [[0, 0, 0]],
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
    setX(next)
  }

  const onPointerUp = async () => {
    const current = drag.current
    drag.current = null
    if (!current || !challenge) return
    setState('verifying')
    try {
      const solution = await pow.current!.solution
      const dropped = current.track[current.track.length - 1][0]
      const { data } = await api<{ captchaToken: string }>('auth/captcha/verify', {
        method: 'POST',
        body: { captchaId: challenge.captchaId, x: dropped, track: current.track, pow: solution },
      })
      setState('verified')
      setMessage('Verified')
      onToken(data.captchaToken)
    } catch {
      // The challenge is spent whatever went wrong: show why briefly, then a new one.
      setState('failed')
      setMessage('Not quite: try again')
      setTimeout(load, 800)
    }
  }

  const width = challenge?.width ?? 320
  const height = challenge?.height ?? 160
  const handle = challenge?.pieceSize ?? 50
  return (
    <Box
      data-testid="captcha"
      data-captcha-state={state}
      data-pow={powSolved ? 'solved' : 'pending'}
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
        {challenge && (
          <>
            <img
              src={challenge.backgroundImage}
              width={width}
              height={height}
              alt="captcha background"
              draggable={false}
            />
            <img
              src={challenge.pieceImage}
              alt="captcha piece"
              draggable={false}
              style={{
                position: 'absolute',
                left: x,
                top: challenge.pieceY,
                width: challenge.pieceSize,
                height: challenge.pieceSize,
              }}
            />
          </>
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
          sx={{ position: 'absolute', inset: 0, textAlign: 'center', lineHeight: `${handle}px` }}
        >
          {message || (state === 'loading' ? 'Loading…' : 'Drag the piece into the gap')}
        </Typography>
        <Box
          data-testid="captcha-handle"
          role="slider"
          aria-label="Drag the piece into the gap"
          aria-valuemin={0}
          aria-valuemax={maxX}
          aria-valuenow={Math.round(x)}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          sx={{
            position: 'absolute',
            top: -1,
            left: x,
            width: handle,
            height: handle,
            borderRadius: 1,
            touchAction: 'none',
            cursor: state === 'ready' || state === 'dragging' ? 'grab' : 'default',
            bgcolor:
              state === 'verified'
                ? 'success.main'
                : state === 'failed'
                  ? 'error.main'
                  : 'primary.main',
            color: 'white',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            fontWeight: 'bold',
          }}
        >
          {state === 'verified' ? '✓' : '→'}
        </Box>
      </Box>
    </Box>
  )
}

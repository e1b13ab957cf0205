import { useCallback, useEffect, useState } from 'react'
import type { FormEvent, ReactNode } from 'react'
import { Alert, Box, Button, Card, CardContent, TextField, Typography } from '@mui/material'
import { api, tokens } from './api'
import { SliderCaptcha } from './captcha/SliderCaptcha'
import { currentLocale } from './i18n/errors'
import { LOGIN_TEXT, LoginTextContext, useLoginText } from './i18n/login'

/**
 * The pages a mail leads to, and the requests that send one (docs/email.md): "Forgot password?"
 * and "Send me a sign-in link for this browser" on the login page, the reset page and the device
 * enrolment page of the links and the undo of an email change (hash routes #/reset-password,
 * #/enrol-device and #/undo-email, shown by main.tsx
 * without a session). No react-admin in here, like the login page.
 */

/** Whether the server sends mail (GET /api/auth/features): else none of this is offered. */
let features: Promise<boolean> | undefined
export function useMailOn() {
  const [on, setOn] = useState(false)
  useEffect(() => {
    features ??= api<{ mail: boolean }>('auth/features')
      .then((answer) => answer.data.mail)
      .catch(() => false)
    features.then(setOn)
  }, [])
  return on
}

/** `value` once it has not changed for `ms`. */
export function useSettled(value: string, ms: number) {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

/**
 * Forgot password (`kind: 'forgot'`) or a device link (`'device'`): the account, a captcha, then
 * the same answer whatever the account.
 */
export function MailRequestCard({
  kind,
  initialAccount,
  onBack,
}: {
  kind: 'forgot' | 'device'
  initialAccount: string
  onBack: () => void
}) {
  const text = useLoginText().mail
  const [account, setAccount] = useState(initialAccount)
  const captchaAccount = useSettled(account.trim(), 300)
  const [captchaToken, setCaptchaToken] = useState<string | null>(null)
  const [captchaKey, setCaptchaKey] = useState(0)
  const [error, setError] = useState('')
  const [sent, setSent] = useState(false)
  const [busy, setBusy] = useState(false)
  const onToken = useCallback((token: string | null) => setCaptchaToken(token), [])

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!captchaToken) return
    setBusy(true)
    setError('')
    try {
      await api(kind === 'forgot' ? 'auth/password/forgot' : 'auth/devices/request', {
        method: 'POST',
        body: { account: account.trim(), captchaToken },
      })
      setSent(true)
    } catch (failure) {
      setError((failure as Error).message)
      setCaptchaKey((key) => key + 1)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card component="form" onSubmit={submit} sx={{ width: 380 }}>
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'center' }}>
        <Typography variant="h5">
          {kind === 'forgot' ? text.forgotTitle : text.deviceTitle}
        </Typography>
        {sent ? (
          <Alert severity="success" sx={{ width: '100%' }} data-testid="mail-sent">
            {text.sent}
          </Alert>
        ) : (
          <>
            <Typography variant="body2" color="text.secondary">
              {kind === 'forgot' ? text.forgotHelp : text.deviceHelp}
            </Typography>
            <TextField
              label={useLoginText().account}
              name="mailAccount"
              autoComplete="username"
              fullWidth
              required
              value={account}
              onChange={(e) => setAccount(e.target.value)}
            />
            <SliderCaptcha key={captchaKey} account={captchaAccount} onToken={onToken} />
            {error && (
              <Alert severity="error" sx={{ width: '100%' }}>
                {error}
              </Alert>
            )}
            <Button type="submit" variant="contained" fullWidth disabled={!captchaToken || busy}>
              {text.send}
            </Button>
          </>
        )}
        <Button size="small" onClick={onBack}>
          {text.back}
        </Button>
      </CardContent>
    </Card>
  )
}

/** The page around a card: centred, in the console's language. */
function LightPage({ children }: { children: ReactNode }) {
  return (
    <LoginTextContext.Provider value={LOGIN_TEXT[currentLocale()]}>
      <Box
        sx={{
          minHeight: '100vh',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          bgcolor: 'grey.100',
        }}
      >
        {children}
      </Box>
    </LoginTextContext.Provider>
  )
}

/** Back to the login page (a fresh load: main.tsx decides what to show). */
function toLogin(account?: string) {
  window.location.hash = account ? `#/login?account=${encodeURIComponent(account)}` : '#/login'
  window.location.reload()
}

/** #/reset-password?token=...: a new password for the link's account. */
export function ResetPasswordPage({ token }: { token: string }) {
  return (
    <LightPage>
      <ResetPasswordCard token={token} />
    </LightPage>
  )
}

/**
 * #/undo-email?token=...: the link mailed to an address an email change replaced: the address
 * comes back and a new password is set (POST /api/auth/email/undo).
 */
export function UndoEmailPage({ token }: { token: string }) {
  return (
    <LightPage>
      <ResetPasswordCard token={token} undo />
    </LightPage>
  )
}

function ResetPasswordCard({ token, undo = false }: { token: string; undo?: boolean }) {
  const text = useLoginText().mail
  const [password, setPassword] = useState('')
  const [repeat, setRepeat] = useState('')
  const [error, setError] = useState('')
  const [done, setDone] = useState(false)
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (password !== repeat) return setError(text.differ)
    setBusy(true)
    setError('')
    try {
      await api(undo ? 'auth/email/undo' : 'auth/password/reset', {
        method: 'POST',
        body: { token, password },
      })
      setDone(true)
    } catch (failure) {
      const fields = (failure as { body?: { errors?: Record<string, string> } }).body?.errors
      setError(fields?.password ?? (failure as Error).message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card component="form" onSubmit={submit} sx={{ width: 380 }}>
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'center' }}>
        <Typography variant="h5">{undo ? text.undoTitle : text.resetTitle}</Typography>
        {done ? (
          <Alert severity="success" sx={{ width: '100%' }} data-testid="reset-done">
            {undo ? text.undoDone : text.resetDone}
          </Alert>
        ) : (
          <>
            {undo && (
              <Typography variant="body2" color="text.secondary">
                {text.undoHelp}
              </Typography>
            )}
            <TextField
              label={text.newPassword}
              name="newPassword"
              type="password"
              autoComplete="new-password"
              fullWidth
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <TextField
              label={text.repeat}
              name="repeatPassword"
              type="password"
              autoComplete="new-password"
              fullWidth
              required
              value={repeat}
              onChange={(e) => setRepeat(e.target.value)}
            />
            {error && (
              <Alert severity="error" sx={{ width: '100%' }}>
                {error}
              </Alert>
            )}
            <Button type="submit" variant="contained" fullWidth disabled={busy}>
              {undo ? text.undoSubmit : text.resetSubmit}
            </Button>
          </>
        )}
        <Button size="small" onClick={() => toLogin()}>
          {text.signIn}
        </Button>
      </CardContent>
    </Card>
  )
}

/**
 * #/enrol-device?token=...: spends the device link on a click (not on load: a mail scanner
 * opening the page must not spend it) and keeps the device token as a login does.
 */
export function EnrolDevicePage({ token }: { token: string }) {
  return (
    <LightPage>
      <EnrolDeviceCard token={token} />
    </LightPage>
  )
}

function EnrolDeviceCard({ token }: { token: string }) {
  const text = useLoginText().mail
  const [error, setError] = useState('')
  const [account, setAccount] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const enrol = async () => {
    setBusy(true)
    setError('')
    try {
      const answer = await api<{ deviceToken: string; account: string }>('auth/devices/enrol', {
        method: 'POST',
        body: { token },
      })
      tokens.setDevice(answer.data.deviceToken)
      setAccount(answer.data.account)
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card sx={{ width: 380 }}>
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'center' }}>
        <Typography variant="h5">{text.enrolTitle}</Typography>
        {account === null ? (
          <>
            <Typography variant="body2" color="text.secondary">
              {text.enrolHelp}
            </Typography>
            {error && (
              <Alert severity="error" sx={{ width: '100%' }}>
                {error}
              </Alert>
            )}
            <Button variant="contained" fullWidth disabled={busy} onClick={enrol}>
              {text.enrolSubmit}
            </Button>
          </>
        ) : (
          <Alert severity="success" sx={{ width: '100%' }} data-testid="enrolled">
            {text.enrolDone}
          </Alert>
        )}
        <Button size="small" onClick={() => toLogin(account ?? undefined)}>
          {text.signIn}
        </Button>
      </CardContent>
    </Card>
  )
}

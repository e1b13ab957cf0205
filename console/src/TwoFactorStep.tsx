import { useState } from 'react'
import type { FormEvent } from 'react'
import {
  Alert,
  Button,
  Card,
  CardContent,
  Checkbox,
  FormControlLabel,
  TextField,
  Typography,
} from '@mui/material'
import type { MfaRequired, SecondStepParams } from './authProvider'
import { useLoginText } from './i18n/login'
import { passkeyAssertion, passkeysUsable } from './passkey'

/**
 * The second login step (docs/clients.md, "The login flow", 5): the mfaToken of the password
 * step and a TOTP code, a recovery code or a passkey (the `methods` the account has). A wrong code (401) asks again with the same
 * mfaToken; a dead mfaToken (400 E_MFA_TOKEN_INVALID) goes back to the password step. Like
 * LoginPage.tsx, no react-admin in here (main.tsx shows it before the admin bundle is loaded).
 */
export function TwoFactorStep(props: {
  mfaToken: string
  methods: MfaRequired['methods']
  login: (params: SecondStepParams) => Promise<unknown>
  onRestart: (message?: string) => void
}) {
  const TEXT = useLoginText().secondStep
  const [recovery, setRecovery] = useState(false)
  const [value, setValue] = useState('')
  const [remember, setRemember] = useState(false)
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)

  const totp = props.methods.includes('totp')
  const passkey = props.methods.includes('passkey') && passkeysUsable()

  /** The code, the recovery code or (`withPasskey`) an assertion of the authenticator. */
  const submit = async (event: FormEvent | null, withPasskey = false) => {
    event?.preventDefault()
    setBusy(true)
    setError('')
    try {
      const mfaToken = props.mfaToken
      await props.login({
        mfaToken,
        ...(withPasskey
          ? { response: await passkeyAssertion({ mfaToken }) }
          : recovery
            ? { recoveryCode: value.trim() }
            : { code: value.trim() }),
        ...(remember ? { rememberDevice: true } : {}),
      })
    } catch (failure) {
      const { status, body } = failure as { status?: number; body?: { code?: string } }
      if (status === 400 && body?.code === 'E_MFA_TOKEN_INVALID') {
        return props.onRestart(TEXT.expired)
      }
      setError((failure as Error).message)
      setValue('')
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card component="form" onSubmit={submit} sx={{ width: 380 }} data-testid="second-step">
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'center' }}>
        <Typography variant="h5">{TEXT.title}</Typography>
        <Typography color="text.secondary" variant="body2">
          {!totp ? TEXT.passkeyHelp : recovery ? TEXT.recoveryHelp : TEXT.codeHelp}
        </Typography>
        {!totp ? null : recovery ? (
          <TextField
            key="recovery"
            label={TEXT.recoveryCode}
            name="recoveryCode"
            autoComplete="off"
            autoFocus
            fullWidth
            required
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        ) : (
          <TextField
            key="code"
            label={TEXT.code}
            name="code"
            autoComplete="one-time-code"
            autoFocus
            fullWidth
            required
            value={value}
            onChange={(e) => setValue(e.target.value.replace(/\D/g, '').slice(0, 6))}
            slotProps={{ htmlInput: { inputMode: 'numeric', pattern: '[0-9]{6}' } }}
          />
        )}
        <FormControlLabel
          sx={{ alignSelf: 'flex-start' }}
          control={
            <Checkbox
              name="rememberDevice"
              checked={remember}
              onChange={(e) => setRemember(e.target.checked)}
            />
          }
          label={TEXT.remember}
        />
        {error && (
          <Alert severity="error" sx={{ width: '100%' }}>
            {error}
          </Alert>
        )}
        {totp && (
          <Button type="submit" variant="contained" fullWidth disabled={busy || !value.trim()}>
            {TEXT.submit}
          </Button>
        )}
        {passkey && (
          <Button
            variant={totp ? 'outlined' : 'contained'}
            fullWidth
            disabled={busy}
            onClick={() => submit(null, true)}
          >
            {TEXT.usePasskey}
          </Button>
        )}
        {totp && (
          <Button
            size="small"
            sx={{ textTransform: 'none' }}
            onClick={() => {
              setRecovery(!recovery)
              setValue('')
              setError('')
            }}
          >
            {recovery ? TEXT.useCode : TEXT.useRecovery}
          </Button>
        )}
        <Button
          size="small"
          color="inherit"
          sx={{ textTransform: 'none' }}
          onClick={() => props.onRestart()}
        >
          {TEXT.restart}
        </Button>
      </CardContent>
    </Card>
  )
}

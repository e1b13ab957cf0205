import { useState } from 'react'
import {
  Button,
  Form,
  Loading,
  PasswordInput,
  SaveButton,
  TextInput,
  required,
  useNotify,
  usePermissions,
} from 'react-admin'
import { Alert, Box, Card, CardContent, Chip, Typography } from '@mui/material'
import { api } from '../../api'
import type { Me } from '../../authProvider'
import { AccountPage, ShownOnce, useAccountChanged } from './common'

/** Every string of the second-factor page. */
const TEXT = {
  title: 'Second factor (authenticator app)',
  on: 'On',
  off: 'Off',
  required: 'Your organisation requires a second factor: set it up before you go on.',
  intro:
    'After your password, signing in will also ask for a 6-digit code from an authenticator app ' +
    '(Google Authenticator, Microsoft Authenticator, 1Password, ...).',
  password: 'Current password',
  start: 'Start setup',
  scan: 'Scan this QR code with the app, or type the key below into it.',
  secret: 'Key',
  code: 'Code from the app',
  confirm: 'Turn on',
  recoveryTitle: 'Recovery codes',
  recoveryHelp:
    'Each code signs you in once if you lose the phone. They are shown only now: copy or print ' +
    'them and keep them somewhere safe.',
  done: 'I have kept them',
  enabled: 'Second factor turned on',
  disableHelp: 'To turn it off, enter your password and a current code or a recovery code.',
  disableCode: 'Code or recovery code',
  disable: 'Turn off',
  disabled: 'Second factor turned off',
}

type Setup = { secret: string; otpauthUrl: string; qrCode: string }

/**
 * POST /api/auth/2fa/setup (password) -> QR code and key -> POST /api/auth/2fa/confirm (code)
 * -> the 10 recovery codes, shown this once; DELETE /api/auth/2fa (password and a code).
 */
export function SecondFactorPage() {
  const { permissions, isPending } = usePermissions<Me>()
  const notify = useNotify()
  const changed = useAccountChanged()
  const [setup, setSetup] = useState<Setup | null>(null)
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null)
  // AUTH_REQUIRE_2FA sent the person here (Layout.tsx, RequirementFirst).
  const forced = permissions?.pendingRequirement === 'E_2FA_SETUP_REQUIRED'

  if (isPending || !permissions) return <Loading />
  const enabled = Boolean(permissions.user.twoFactorEnabled)

  /** Runs one call; a refusal is shown, and its field errors go under the inputs. */
  const run = async (call: () => Promise<void>) => {
    try {
      await call()
    } catch (failure) {
      notify((failure as Error).message, { type: 'error' })
      return (failure as { body?: { errors?: Record<string, string> } }).body?.errors
    }
  }

  const start = (values: Record<string, any>) =>
    run(async () => {
      const { data } = await api<Setup>('auth/2fa/setup', {
        method: 'POST',
        body: { password: values.password },
      })
      setSetup(data)
    })

  const confirm = (values: Record<string, any>) =>
    run(async () => {
      const { data } = await api<{ recoveryCodes: string[] }>('auth/2fa/confirm', {
        method: 'POST',
        body: { code: String(values.code).trim() },
      })
      setSetup(null)
      setRecoveryCodes(data.recoveryCodes)
      notify(TEXT.enabled, { type: 'success' })
      // /me says nothing is pending now: the rest of the console opens (RequirementFirst).
      await changed()
    })

  const disable = (values: Record<string, any>) =>
    run(async () => {
      await api('auth/2fa', {
        method: 'DELETE',
        body: { password: values.password, code: String(values.code).trim() },
      })
      notify(TEXT.disabled, { type: 'success' })
      await changed()
    })

  return (
    <AccountPage>
      <Card>
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Typography variant="h6">{TEXT.title}</Typography>
            <Chip
              size="small"
              data-testid="2fa-status"
              color={enabled || recoveryCodes ? 'success' : 'default'}
              label={enabled || recoveryCodes ? TEXT.on : TEXT.off}
            />
          </Box>

          {recoveryCodes ? (
            <>
              <Typography variant="subtitle1">{TEXT.recoveryTitle}</Typography>
              <Alert severity="warning">{TEXT.recoveryHelp}</Alert>
              <ShownOnce text={recoveryCodes.join('\n')} testId="recovery-codes" />
              <Box>
                <Button
                  label={TEXT.done}
                  variant="contained"
                  onClick={() => setRecoveryCodes(null)}
                />
              </Box>
            </>
          ) : enabled ? (
            <>
              <Typography color="text.secondary">{TEXT.disableHelp}</Typography>
              <Form key="disable" onSubmit={disable}>
                <Box sx={{ display: 'flex', flexDirection: 'column', maxWidth: 360 }}>
                  <PasswordInput source="password" label={TEXT.password} validate={required()} />
                  <TextInput source="code" label={TEXT.disableCode} validate={required()} />
                  <Box>
                    <SaveButton label={TEXT.disable} color="error" />
                  </Box>
                </Box>
              </Form>
            </>
          ) : setup ? (
            <>
              <Typography>{TEXT.scan}</Typography>
              <Box
                component="img"
                src={setup.qrCode}
                alt="otpauth QR code"
                data-testid="2fa-qr"
                sx={{ width: 200, height: 200, imageRendering: 'pixelated' }}
              />
              <Typography variant="body2">
                {TEXT.secret}:{' '}
                <Box component="code" data-testid="2fa-secret" sx={{ userSelect: 'all' }}>
                  {setup.secret}
                </Box>
              </Typography>
              <Form key="confirm" onSubmit={confirm}>
                <Box sx={{ display: 'flex', flexDirection: 'column', maxWidth: 360 }}>
                  <TextInput
                    source="code"
                    label={TEXT.code}
                    validate={required()}
                    autoComplete="one-time-code"
                  />
                  <Box>
                    <SaveButton label={TEXT.confirm} />
                  </Box>
                </Box>
              </Form>
            </>
          ) : (
            <>
              {forced && <Alert severity="info">{TEXT.required}</Alert>}
              <Typography color="text.secondary">{TEXT.intro}</Typography>
              <Form key="setup" onSubmit={start}>
                <Box sx={{ display: 'flex', flexDirection: 'column', maxWidth: 360 }}>
                  <PasswordInput source="password" label={TEXT.password} validate={required()} />
                  <Box>
                    <SaveButton label={TEXT.start} />
                  </Box>
                </Box>
              </Form>
            </>
          )}
        </CardContent>
      </Card>
    </AccountPage>
  )
}

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
  useTranslate,
} from 'react-admin'
import { Alert, Box, Card, CardContent, Chip, Typography } from '@mui/material'
import { api } from '../../api'
import type { Me } from '../../authProvider'
import { AccountPage, ShownOnce, useAccountChanged } from './common'
import { PasskeysCard } from './PasskeysCard'

type Setup = { secret: string; otpauthUrl: string; qrCode: string }

/**
 * POST /api/auth/2fa/setup (password) -> QR code and key -> POST /api/auth/2fa/confirm (code)
 * -> the 10 recovery codes, shown this once; DELETE /api/auth/2fa (password and a code).
 */
export function SecondFactorPage() {
  const { permissions, isPending } = usePermissions<Me>()
  const notify = useNotify()
  const translate = useTranslate()
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
      notify('app.second_factor.enabled', { type: 'success' })
      // /me says nothing is pending now: the rest of the console opens (RequirementFirst).
      await changed()
    })

  const disable = (values: Record<string, any>) =>
    run(async () => {
      await api('auth/2fa', {
        method: 'DELETE',
        body: { password: values.password, code: String(values.code).trim() },
      })
      notify('app.second_factor.disabled', { type: 'success' })
      await changed()
    })

  return (
    <AccountPage>
      <Card data-testid="totp">
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Typography variant="h6">{translate('app.second_factor.title')}</Typography>
            <Chip
              size="small"
              data-testid="2fa-status"
              color={enabled || recoveryCodes ? 'success' : 'default'}
              label={
                enabled || recoveryCodes
                  ? translate('app.second_factor.on')
                  : translate('app.second_factor.off')
              }
            />
          </Box>

          {recoveryCodes ? (
            <>
              <Typography variant="subtitle1">
                {translate('app.second_factor.recovery_title')}
              </Typography>
              <Alert severity="warning">{translate('app.second_factor.recovery_help')}</Alert>
              <ShownOnce text={recoveryCodes.join('\n')} testId="recovery-codes" />
              <Box>
                <Button
                  label="app.second_factor.done"
                  variant="contained"
                  onClick={() => setRecoveryCodes(null)}
                />
              </Box>
            </>
          ) : enabled ? (
            <>
              <Typography color="text.secondary">
                {translate('app.second_factor.disable_help')}
              </Typography>
              <Form key="disable" onSubmit={disable}>
                <Box sx={{ display: 'flex', flexDirection: 'column', maxWidth: 360 }}>
                  <PasswordInput
                    source="password"
                    label="app.second_factor.password"
                    validate={required()}
                  />
                  <TextInput
                    source="code"
                    label="app.second_factor.disable_code"
                    validate={required()}
                  />
                  <Box>
                    <SaveButton label="app.second_factor.disable" color="error" />
                  </Box>
                </Box>
              </Form>
            </>
          ) : setup ? (
            <>
              <Typography>{translate('app.second_factor.scan')}</Typography>
              <Box
                component="img"
                src={setup.qrCode}
                alt={translate('app.second_factor.qr_alt')}
                data-testid="2fa-qr"
                sx={{ width: 200, height: 200, imageRendering: 'pixelated' }}
              />
              <Typography variant="body2">
                {translate('app.second_factor.secret')}:{' '}
                <Box component="code" data-testid="2fa-secret" sx={{ userSelect: 'all' }}>
                  {setup.secret}
                </Box>
              </Typography>
              <Form key="confirm" onSubmit={confirm}>
                <Box sx={{ display: 'flex', flexDirection: 'column', maxWidth: 360 }}>
                  <TextInput
                    source="code"
                    label="app.second_factor.code"
                    validate={required()}
                    autoComplete="one-time-code"
                  />
                  <Box>
                    <SaveButton label="app.second_factor.confirm" />
                  </Box>
                </Box>
              </Form>
            </>
          ) : (
            <>
              {forced && <Alert severity="info">{translate('app.second_factor.required')}</Alert>}
              <Typography color="text.secondary">{translate('app.second_factor.intro')}</Typography>
              <Form key="setup" onSubmit={start}>
                <Box sx={{ display: 'flex', flexDirection: 'column', maxWidth: 360 }}>
                  <PasswordInput
                    source="password"
                    label="app.second_factor.password"
                    validate={required()}
                  />
                  <Box>
                    <SaveButton label="app.second_factor.start" />
                  </Box>
                </Box>
              </Form>
            </>
          )}
        </CardContent>
      </Card>
      {!recoveryCodes && <PasskeysCard />}
    </AccountPage>
  )
}

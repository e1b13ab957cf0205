import { useState } from 'react'
import { useLocaleState, usePermissions, useTranslate } from 'react-admin'
import { Alert, Box } from '@mui/material'
import { dismissSignInNotice, signInNoticePending, type Me } from './authProvider'

/** A date and time in the console's language (an ISO string from the API). */
export const formatDateTime = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale === 'zh' ? 'zh-CN' : 'en', {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(iso))

/**
 * After a sign-in in this page (not after a reload): when and from where the account signed in
 * before, and the failed password checks since then (/me `lastSignIn`, `failedSinceLastSignIn`),
 * as a banner over every page until it is dismissed. Nothing on an account's first sign-in
 * without failures.
 */
export function SignInNotice() {
  const { permissions: me } = usePermissions<Me>()
  const translate = useTranslate()
  const [locale] = useLocaleState()
  const [open, setOpen] = useState(signInNoticePending)
  if (!open || !me) return null
  const { lastSignIn, failedSinceLastSignIn: failed } = me.user
  if (!lastSignIn && failed === 0) return null
  const close = () => {
    dismissSignInNotice()
    setOpen(false)
  }
  return (
    <Alert
      severity={failed > 0 ? 'warning' : 'info'}
      onClose={close}
      sx={{ mt: 2 }}
      data-testid="sign-in-notice"
    >
      {lastSignIn && (
        <Box>
          {lastSignIn.ip
            ? translate('app.sign_in_notice.last', {
                at: formatDateTime(lastSignIn.at, locale),
                ip: lastSignIn.ip,
              })
            : translate('app.sign_in_notice.last_no_ip', {
                at: formatDateTime(lastSignIn.at, locale),
              })}
        </Box>
      )}
      {failed > 0 && (
        <Box sx={{ fontWeight: 600 }} data-testid="sign-in-failures">
          {translate(lastSignIn ? 'app.sign_in_notice.failed' : 'app.sign_in_notice.failed_first', {
            smart_count: failed,
          })}
        </Box>
      )}
    </Alert>
  )
}

import {
  Form,
  FormDataConsumer,
  ImageField,
  ImageInput,
  Loading,
  PasswordInput,
  SaveButton,
  TextInput,
  email,
  required,
  useNotify,
  useTranslate,
} from 'react-admin'
import { useState } from 'react'
import { Alert, Avatar, Box, Button, Card, CardContent, TextField, Typography } from '@mui/material'
import { api, type Schemas } from '../../api'
import { useMailOn } from '../../MailPages'
import { AccountPage, codeOf, useAccountChanged, useAvatarSrc, useProfile } from './common'

/** Refusals of PUT /api/auth/avatar, by the error's rule (E_VALIDATION_ERROR) or status. */
const AVATAR_ERRORS: Record<string, string> = {
  required: 'app.profile.avatar_errors.required',
  size: 'app.profile.avatar_errors.size',
  image: 'app.profile.avatar_errors.image',
  dimensions: 'app.profile.avatar_errors.dimensions',
  413: 'app.profile.avatar_errors.too_large',
}

/**
 * GET/PUT /api/auth/profile (nickname, email: a new address asks for the current password) and
 * PUT /api/auth/avatar (multipart).
 */
export function ProfilePage() {
  const { data: profile, error, isPending } = useProfile()
  const notify = useNotify()
  const translate = useTranslate()
  const changed = useAccountChanged()
  const avatarSrc = useAvatarSrc(profile?.avatarUrl)

  if (isPending) return <Loading />
  if (!profile) {
    return (
      <AccountPage>
        <Alert severity="error">{(error as Error)?.message}</Alert>
      </AccountPage>
    )
  }

  const saveProfile = async (values: Record<string, any>) => {
    try {
      await api('auth/profile', {
        method: 'PUT',
        body: {
          nickname: values.nickname,
          email: values.email || null,
          // Asked (and sent) only when the address changes (docs/email.md, "Email change").
          ...(values.currentPassword ? { currentPassword: values.currentPassword } : {}),
        },
      })
      notify('app.profile.saved', { type: 'success' })
      await changed()
    } catch (failure) {
      notify((failure as Error).message, { type: 'error' })
      // 422: shown under the input the server named.
      return (failure as { body?: { errors?: Record<string, string> } }).body?.errors
    }
  }

  const uploadAvatar = async (values: Record<string, any>) => {
    const file: File | undefined = values.avatar?.rawFile
    if (!file) return
    const form = new FormData()
    form.append('avatar', file)
    try {
      await api('auth/avatar', { method: 'PUT', body: form })
      notify('app.profile.uploaded', { type: 'success' })
      await changed()
    } catch (failure) {
      const { status, body } = failure as { status?: number; body?: { rule?: string } }
      const known =
        codeOf(failure) === 'E_VALIDATION_ERROR' ? AVATAR_ERRORS[body?.rule ?? ''] : undefined
      const key = known ?? AVATAR_ERRORS[status ?? '']
      const message = key ? translate(key) : (failure as Error).message
      notify(message, { type: 'error' })
      return { avatar: message }
    }
  }

  return (
    <AccountPage>
      <Card sx={{ mb: 2 }}>
        <CardContent>
          <Typography variant="h6" gutterBottom>
            {translate('app.profile.title')}
          </Typography>
          <Form record={profile} onSubmit={saveProfile}>
            <Box sx={{ display: 'flex', flexDirection: 'column', maxWidth: 420 }}>
              <TextInput source="account" label="app.profile.account" disabled />
              <TextInput source="nickname" label="app.profile.nickname" validate={required()} />
              <TextInput source="email" label="app.profile.email" type="email" validate={email()} />
              <FormDataConsumer>
                {({ formData }) =>
                  (formData.email || null) !== (profile.email || null) && (
                    <PasswordInput
                      source="currentPassword"
                      label="app.profile.current_password"
                      helperText="app.profile.current_password_help"
                      autoComplete="current-password"
                      validate={required()}
                    />
                  )
                }
              </FormDataConsumer>
              <Box>
                <SaveButton />
              </Box>
            </Box>
          </Form>
          <EmailVerification profile={profile} onVerified={changed} />
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h6" gutterBottom>
            {translate('app.profile.avatar')}
          </Typography>
          <Box sx={{ display: 'flex', gap: 3, alignItems: 'flex-start' }}>
            <Avatar
              src={avatarSrc}
              alt={profile.nickname || profile.account}
              sx={{ width: 96, height: 96 }}
              data-testid="avatar"
            />
            <Form key={profile.avatarUrl ?? 'none'} onSubmit={uploadAvatar}>
              <ImageInput
                source="avatar"
                label={false}
                accept={{ 'image/*': ['.png', '.jpg', '.jpeg', '.gif', '.webp'] }}
                placeholder={<p>{translate('app.profile.avatar_drop')}</p>}
                helperText="app.profile.avatar_help"
              >
                <ImageField source="src" title="title" />
              </ImageInput>
              <SaveButton label="app.profile.upload" alwaysEnable />
            </Form>
          </Box>
        </CardContent>
      </Card>
    </AccountPage>
  )
}

/**
 * The own address's verification (docs/email.md): a changed address gets a 6-digit code by mail;
 * shown only when the server sends mail.
 */
function EmailVerification({
  profile,
  onVerified,
}: {
  profile: Schemas['CurrentUser']
  onVerified: () => Promise<unknown>
}) {
  const translate = useTranslate()
  const notify = useNotify()
  const mailOn = useMailOn()
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState(false)
  if (!mailOn || !profile.email) return null
  if (profile.emailVerified) {
    return (
      <Typography variant="body2" color="success.main" data-testid="email-verified">
        {profile.email}: {translate('app.email.verified')}
      </Typography>
    )
  }
  const run = async (work: () => Promise<unknown>, done: string) => {
    setBusy(true)
    try {
      await work()
      notify(translate(done), { type: 'success' })
    } catch (failure) {
      notify((failure as Error).message, { type: 'error' })
    } finally {
      setBusy(false)
    }
  }
  const verify = () =>
    run(async () => {
      await api('auth/profile/email/verify', { method: 'POST', body: { code: code.trim() } })
      setCode('')
      await onVerified()
    }, 'app.email.done')
  const resend = () =>
    run(() => api('auth/profile/email/code', { method: 'POST' }), 'app.email.resent')
  return (
    <Box sx={{ mt: 2, display: 'flex', flexDirection: 'column', gap: 1, maxWidth: 420 }}>
      <Alert severity="warning">{translate('app.email.unverified')}</Alert>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
        <TextField
          size="small"
          label={translate('app.email.code')}
          name="emailCode"
          value={code}
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6 } }}
          onChange={(event) => setCode(event.target.value)}
        />
        <Button variant="contained" disabled={busy || code.trim().length !== 6} onClick={verify}>
          {translate('app.email.verify')}
        </Button>
        <Button disabled={busy} onClick={resend}>
          {translate('app.email.resend')}
        </Button>
      </Box>
    </Box>
  )
}

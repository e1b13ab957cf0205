import { useState } from 'react'
import type { FormEvent } from 'react'
import { Title, useNotify, usePermissions, useTranslate } from 'react-admin'
import { Alert, Button, Card, CardContent, TextField } from '@mui/material'
import { api, tokens } from '../api'
import type { Me } from '../authProvider'

/** PUT /api/auth/password: every older token dies; the answer carries a fresh one for this tab. */
export function PasswordPage() {
  const notify = useNotify()
  const translate = useTranslate()
  const { permissions, refetch } = usePermissions<Me>()
  const required = permissions?.user.passwordChangeRequired
  const [form, setForm] = useState({ currentPassword: '', newPassword: '', confirm: '' })
  const [error, setError] = useState('')
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) =>
    setForm({ ...form, [key]: event.target.value })

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (form.newPassword !== form.confirm) return setError(translate('app.password.differ'))
    try {
      const { data } = await api<{ token: string }>('auth/password', {
        method: 'PUT',
        body: { currentPassword: form.currentPassword, newPassword: form.newPassword },
      })
      tokens.set(data.token)
      setForm({ currentPassword: '', newPassword: '', confirm: '' })
      setError('')
      notify('app.password.changed', { type: 'success' })
      // The rest of the console was waiting for this (Layout.tsx, PasswordFirst).
      if (required) await refetch()
    } catch (failure) {
      setError((failure as Error).message)
    }
  }

  return (
    <Card sx={{ mt: 2, maxWidth: 420 }} component="form" onSubmit={submit}>
      <Title title={translate('app.change_password')} />
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {required && <Alert severity="info">{translate('app.password.required')}</Alert>}
        <TextField
          label={translate('app.password.current')}
          type="password"
          required
          value={form.currentPassword}
          onChange={set('currentPassword')}
        />
        <TextField
          label={translate('app.password.new')}
          type="password"
          required
          value={form.newPassword}
          onChange={set('newPassword')}
        />
        <TextField
          label={translate('app.password.repeat')}
          type="password"
          required
          value={form.confirm}
          onChange={set('confirm')}
        />
        {error && <Alert severity="error">{error}</Alert>}
        <Button type="submit" variant="contained">
          {translate('app.change_password')}
        </Button>
      </CardContent>
    </Card>
  )
}

import { useState } from 'react'
import {
  Button,
  Datagrid,
  Form,
  FunctionField,
  ListContextProvider,
  PasswordInput,
  ResourceContextProvider,
  SaveButton,
  TextField,
  TextInput,
  required,
  useList,
  useLocaleState,
  useNotify,
  useRecordContext,
  useTranslate,
} from 'react-admin'
import {
  Alert,
  Box,
  Card,
  CardContent,
  DialogActions,
  DialogContent,
  DialogTitle,
  TextField as MuiTextField,
  Typography,
} from '@mui/material'
import Delete from '@mui/icons-material/Delete'
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser'
import { api, type Schemas } from '../../api'
import { formatDateTime } from '../../SignInNotice'
import { useAccountChanged, useAccountQuery } from './common'
import { PhoneDialog } from '../../components'

type Passkey = Schemas['OwnPasskey']

/** A refusal shown as a notice: the authenticator's own (cancelled, timed out) or the server's. */
const failed = (notify: ReturnType<typeof useNotify>, failure: unknown) =>
  notify((failure as Error).message, { type: 'error' })

/**
 * POST /api/auth/passkeys/options (password) -> the browser's authenticator -> POST
 * /api/auth/passkeys (name, response); the list with last use; DELETE with the password. WebAuthn
 * needs a secure context (https, or localhost): elsewhere the card says so and offers nothing.
 */
export function PasskeysCard() {
  const translate = useTranslate()
  const notify = useNotify()
  const changed = useAccountChanged()
  const [locale] = useLocaleState()
  const passkeys = useAccountQuery<Passkey[]>('passkeys', 'auth/passkeys')
  const list = useList({ data: passkeys.data ?? [], isPending: passkeys.isPending, perPage: 100 })
  const supported = browserSupportsWebAuthn()

  const add = async (values: Record<string, any>) => {
    try {
      const { data: optionsJSON } = await api<Schemas['PasskeyRegistrationOptions']>(
        'auth/passkeys/options',
        { method: 'POST', body: { password: values.password } }
      )
      const response = await startRegistration({ optionsJSON: optionsJSON as any })
      await api('auth/passkeys', { method: 'POST', body: { name: values.name, response } })
      notify('app.passkeys.added', { type: 'success' })
      // /me: a passkey settles AUTH_REQUIRE_2FA.
      await changed()
    } catch (failure) {
      failed(notify, failure)
      return (failure as { body?: { errors?: Record<string, string> } }).body?.errors
    }
  }

  return (
    <Card data-testid="passkeys" sx={{ mt: 2 }}>
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Typography variant="h6">{translate('app.passkeys.title')}</Typography>
        <Typography color="text.secondary">{translate('app.passkeys.intro')}</Typography>
        {passkeys.error && <Alert severity="error">{(passkeys.error as Error).message}</Alert>}
        <ResourceContextProvider value="account/passkeys">
          <ListContextProvider value={list}>
            <Datagrid
              bulkActionButtons={false}
              rowClick={false}
              empty={
                <Typography color="text.secondary">{translate('app.passkeys.none')}</Typography>
              }
              data-testid="passkey-list"
            >
              <TextField source="name" label="app.passkeys.name" sortable={false} />
              <FunctionField
                label="app.passkeys.created"
                sortable={false}
                render={(passkey: Passkey) => formatDateTime(passkey.createdAt, locale)}
              />
              <FunctionField
                label="app.passkeys.last_used"
                sortable={false}
                render={(passkey: Passkey) =>
                  passkey.lastUsedAt
                    ? formatDateTime(passkey.lastUsedAt, locale)
                    : translate('app.passkeys.never')
                }
              />
              <RemoveButton />
            </Datagrid>
          </ListContextProvider>
        </ResourceContextProvider>
        {supported ? (
          <Form key={passkeys.data?.length} onSubmit={add}>
            <Box sx={{ display: 'flex', flexDirection: 'column', maxWidth: 360 }}>
              <TextInput
                source="name"
                label="app.passkeys.name"
                helperText="app.passkeys.name_help"
                validate={required()}
              />
              <PasswordInput
                source="password"
                label="app.second_factor.password"
                validate={required()}
              />
              <Box>
                <SaveButton label="app.passkeys.add" />
              </Box>
            </Box>
          </Form>
        ) : (
          <Alert severity="info">{translate('app.passkeys.unsupported')}</Alert>
        )}
      </CardContent>
    </Card>
  )
}

/** Removing one asks for the password again (a stolen session cannot drop the owner's key). */
function RemoveButton() {
  const passkey = useRecordContext<Passkey>()
  const translate = useTranslate()
  const notify = useNotify()
  const changed = useAccountChanged()
  const [open, setOpen] = useState(false)
  const [password, setPassword] = useState('')
  if (!passkey) return null
  const remove = async () => {
    try {
      await api(`auth/passkeys/${passkey.id}`, { method: 'DELETE', body: { password } })
      setOpen(false)
      notify('app.passkeys.removed', { type: 'success' })
      await changed()
    } catch (failure) {
      failed(notify, failure)
    } finally {
      setPassword('')
    }
  }
  return (
    <>
      <Button label="app.passkeys.remove" color="error" onClick={() => setOpen(true)}>
        <Delete />
      </Button>
      <PhoneDialog open={open} onClose={() => setOpen(false)}>
        <DialogTitle>{translate('app.passkeys.remove_title', { name: passkey.name })}</DialogTitle>
        <DialogContent>
          <MuiTextField
            label={translate('app.second_factor.password')}
            type="password"
            autoFocus
            fullWidth
            margin="dense"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </DialogContent>
        <DialogActions>
          <Button label="ra.action.cancel" onClick={() => setOpen(false)} />
          <Button label="app.passkeys.remove" color="error" disabled={!password} onClick={remove} />
        </DialogActions>
      </PhoneDialog>
    </>
  )
}

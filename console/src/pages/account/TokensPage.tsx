import { useState } from 'react'
import {
  Button,
  Confirm,
  Datagrid,
  DateField,
  Form,
  FunctionField,
  ListContextProvider,
  Loading,
  NumberInput,
  ResourceContextProvider,
  SaveButton,
  TextField,
  TextInput,
  maxValue,
  minValue,
  required,
  useList,
  useNotify,
  usePermissions,
  useRecordContext,
  useTranslate,
} from 'react-admin'
import { Alert, Box, Card, CardContent, Typography } from '@mui/material'
import Delete from '@mui/icons-material/Delete'
import { useQueryClient } from '@tanstack/react-query'
import { api } from '../../api'
import type { Me } from '../../authProvider'
import { ChoiceChip } from '../../components'
import { PermissionTreeInput } from '../PermissionTreeInput'
import { AccountPage, ShownOnce, useAccountQuery } from './common'

/** MAX_TTL_DAYS of app/auth/api_tokens.ts. */
const MAX_DAYS = 365

type ApiToken = {
  id: number
  name: string
  hint: string
  permissions: string[]
  status: 'active' | 'expired' | 'revoked'
  createdAt: string
  expiresAt: string
  lastUsedAt: string | null
}
/** useAccountQuery's key of the list. */
const TOKENS_KEY = ['account', 'tokens']

/** GET/POST /api/auth/tokens, DELETE /api/auth/tokens/:id: the own API tokens. */
export function TokensPage() {
  const { permissions: me } = usePermissions<Me>()
  const notify = useNotify()
  const translate = useTranslate()
  const queryClient = useQueryClient()
  const [shown, setShown] = useState<string | null>(null)
  const [formKey, setFormKey] = useState(0)
  const tokens = useAccountQuery<ApiToken[]>('tokens', 'auth/tokens')
  const list = useList({ data: tokens.data ?? [], isPending: tokens.isPending, perPage: 100 })

  if (!me) return <Loading />

  const create = async (values: Record<string, any>) => {
    try {
      const { data } = await api<ApiToken & { token: string }>('auth/tokens', {
        method: 'POST',
        body: {
          name: values.name,
          expiresInDays: Number(values.expiresInDays),
          permissions: values.permissions,
        },
      })
      setShown(data.token)
      setFormKey((key) => key + 1)
      notify('app.own_tokens.created', { type: 'success' })
      await queryClient.invalidateQueries({ queryKey: TOKENS_KEY })
    } catch (failure) {
      notify((failure as Error).message, { type: 'error' })
      return (failure as { body?: { errors?: Record<string, string> } }).body?.errors
    }
  }

  return (
    <AccountPage>
      <Card sx={{ mb: 2 }}>
        <CardContent>
          <Typography variant="h6" gutterBottom>
            {translate('app.own_tokens.create')}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {translate('app.own_tokens.intro')}
          </Typography>
          {shown && (
            <Box sx={{ mb: 2 }}>
              <Alert severity="warning" sx={{ mb: 1 }} onClose={() => setShown(null)}>
                {translate('app.own_tokens.shown_once')}
              </Alert>
              <ShownOnce text={shown} testId="new-token" />
            </Box>
          )}
          <Form
            key={formKey}
            defaultValues={{ expiresInDays: 30, permissions: [] }}
            onSubmit={create}
          >
            <Box sx={{ display: 'flex', flexDirection: 'column', maxWidth: 600 }}>
              <TextInput source="name" label="app.own_tokens.name" validate={required()} />
              <NumberInput
                source="expiresInDays"
                label="app.own_tokens.expires_in_days"
                validate={[required(), minValue(1), maxValue(MAX_DAYS)]}
              />
              <PermissionTreeInput source="permissions" held={me.permissions} />
              <Box>
                <SaveButton label="app.own_tokens.submit" />
              </Box>
            </Box>
          </Form>
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h6" gutterBottom>
            {translate('app.own_tokens.yours')}
          </Typography>
          {tokens.error && <Alert severity="error">{(tokens.error as Error).message}</Alert>}
          {/* A react-admin table over a plain query; rows need a resource name, any will do. */}
          <ResourceContextProvider value="account/tokens">
            <ListContextProvider value={list}>
              <Datagrid
                bulkActionButtons={false}
                rowClick={false}
                empty={
                  <Typography color="text.secondary">{translate('app.own_tokens.none')}</Typography>
                }
                data-testid="token-list"
              >
                <TextField source="name" label="app.own_tokens.name" sortable={false} />
                <FunctionField
                  label="app.own_tokens.hint"
                  sortable={false}
                  render={(t: ApiToken) => `…${t.hint}`}
                />
                <FunctionField
                  label="app.own_tokens.status"
                  sortable={false}
                  render={(t: ApiToken) => <ChoiceChip group="token_status" value={t.status} />}
                />
                <FunctionField
                  label="app.own_tokens.codes"
                  sortable={false}
                  render={(t: ApiToken) => t.permissions.join(', ')}
                />
                <DateField
                  source="createdAt"
                  label="app.own_tokens.created_at"
                  showTime
                  sortable={false}
                />
                <DateField source="expiresAt" label="app.own_tokens.expires_at" sortable={false} />
                <DateField
                  source="lastUsedAt"
                  label="app.own_tokens.last_used_at"
                  showTime
                  sortable={false}
                />
                <RevokeButton />
              </Datagrid>
            </ListContextProvider>
          </ResourceContextProvider>
        </CardContent>
      </Card>
    </AccountPage>
  )
}

function RevokeButton() {
  const token = useRecordContext<ApiToken>()
  const notify = useNotify()
  const queryClient = useQueryClient()
  const [open, setOpen] = useState(false)
  if (!token || token.status !== 'active') return null
  const revoke = async () => {
    setOpen(false)
    try {
      await api(`auth/tokens/${token.id}`, { method: 'DELETE' })
      notify('app.own_tokens.revoked', { type: 'success' })
    } catch (failure) {
      notify((failure as Error).message, { type: 'error' })
    }
    await queryClient.invalidateQueries({ queryKey: TOKENS_KEY })
  }
  return (
    <>
      <Button label="app.own_tokens.revoke" color="error" onClick={() => setOpen(true)}>
        <Delete />
      </Button>
      <Confirm
        isOpen={open}
        title="app.own_tokens.revoke_title"
        translateOptions={{ name: token.name }}
        content="app.own_tokens.revoke_confirm"
        onConfirm={revoke}
        onClose={() => setOpen(false)}
      />
    </>
  )
}

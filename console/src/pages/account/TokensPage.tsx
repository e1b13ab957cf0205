import { useState } from 'react'
import {
  Button,
  CheckboxGroupInput,
  ChipField,
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
  minLength,
  minValue,
  required,
  useList,
  useNotify,
  usePermissions,
  useRecordContext,
} from 'react-admin'
import { Alert, Box, Card, CardContent, Typography } from '@mui/material'
import Delete from '@mui/icons-material/Delete'
import { useQueryClient } from '@tanstack/react-query'
import { api } from '../../api'
import type { Me } from '../../authProvider'
import { AccountPage, ShownOnce, useAccountQuery } from './common'

/** Every string of the API tokens page. */
const TEXT = {
  intro:
    'An API token lets a script call the admin API (/api/admin/*) as you, with only the codes ' +
    'you pick and never more than you hold at the time of each call.',
  create: 'New token',
  name: 'Name',
  expiresInDays: 'Expires in (days)',
  codes: 'Permission codes',
  submit: 'Create token',
  created: 'Token created',
  shownOnce: 'Copy the token now: it is shown only this once.',
  yours: 'Your tokens',
  none: 'No tokens yet.',
  hint: 'Ends with',
  status: 'Status',
  createdAt: 'Created',
  expiresAt: 'Expires',
  lastUsedAt: 'Last used',
  revoke: 'Revoke',
  revokeConfirm: 'Scripts using this token will be refused from now on.',
  revoked: 'Token revoked',
}
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
  const queryClient = useQueryClient()
  const [shown, setShown] = useState<string | null>(null)
  const [formKey, setFormKey] = useState(0)
  const tokens = useAccountQuery<ApiToken[]>('tokens', 'auth/tokens')
  const list = useList({ data: tokens.data ?? [], isPending: tokens.isPending, perPage: 100 })

  if (!me) return <Loading />
  // The picker offers exactly the codes held (the server refuses any other with a 403).
  const choices = [...me.permissions].sort().map((code) => ({ id: code, name: code }))

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
      notify(TEXT.created, { type: 'success' })
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
            {TEXT.create}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {TEXT.intro}
          </Typography>
          {shown && (
            <Box sx={{ mb: 2 }}>
              <Alert severity="warning" sx={{ mb: 1 }} onClose={() => setShown(null)}>
                {TEXT.shownOnce}
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
              <TextInput source="name" label={TEXT.name} validate={required()} />
              <NumberInput
                source="expiresInDays"
                label={TEXT.expiresInDays}
                validate={[required(), minValue(1), maxValue(MAX_DAYS)]}
              />
              <Box sx={{ maxHeight: 320, overflow: 'auto' }}>
                <CheckboxGroupInput
                  source="permissions"
                  label={TEXT.codes}
                  choices={choices}
                  row={false}
                  validate={minLength(1)}
                />
              </Box>
              <Box>
                <SaveButton label={TEXT.submit} />
              </Box>
            </Box>
          </Form>
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h6" gutterBottom>
            {TEXT.yours}
          </Typography>
          {tokens.error && <Alert severity="error">{(tokens.error as Error).message}</Alert>}
          {/* A react-admin table over a plain query; rows need a resource name, any will do. */}
          <ResourceContextProvider value="account/tokens">
            <ListContextProvider value={list}>
              <Datagrid
                bulkActionButtons={false}
                rowClick={false}
                empty={<Typography color="text.secondary">{TEXT.none}</Typography>}
                data-testid="token-list"
              >
                <TextField source="name" label={TEXT.name} sortable={false} />
                <FunctionField
                  label={TEXT.hint}
                  sortable={false}
                  render={(t: ApiToken) => `…${t.hint}`}
                />
                <ChipField source="status" label={TEXT.status} size="small" sortable={false} />
                <FunctionField
                  label={TEXT.codes}
                  sortable={false}
                  render={(t: ApiToken) => t.permissions.join(', ')}
                />
                <DateField source="createdAt" label={TEXT.createdAt} showTime sortable={false} />
                <DateField source="expiresAt" label={TEXT.expiresAt} sortable={false} />
                <DateField source="lastUsedAt" label={TEXT.lastUsedAt} showTime sortable={false} />
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
      notify(TEXT.revoked, { type: 'success' })
    } catch (failure) {
      notify((failure as Error).message, { type: 'error' })
    }
    await queryClient.invalidateQueries({ queryKey: TOKENS_KEY })
  }
  return (
    <>
      <Button label={TEXT.revoke} color="error" onClick={() => setOpen(true)}>
        <Delete />
      </Button>
      <Confirm
        isOpen={open}
        title={`${TEXT.revoke}: ${token.name}`}
        content={TEXT.revokeConfirm}
        onConfirm={revoke}
        onClose={() => setOpen(false)}
      />
    </>
  )
}

import {
  DateField,
  FunctionField,
  List,
  TextField,
  TextInput,
  WrapperField,
  useRecordContext,
} from 'react-admin'
import { api, type Schemas } from '../api'
import { ACTIONS_COLUMN, ActionButton, ChoiceChip, Grid, NO_SORT, RowActions } from '../components'

type ApiToken = Schemas['ApiToken']

/** Revoke (DELETE /api/admin/tokens/:id), confirmed with the token's and its owner's names. */
const RevokeToken = () => {
  const token = useRecordContext<ApiToken>()
  if (!token) return null
  return (
    <ActionButton
      action="delete"
      label="app.api_tokens.revoke"
      confirm="app.api_tokens.revoke_confirm"
      confirmArgs={{ name: token.name, account: token.account ?? `#${token.userId}` }}
      done="app.api_tokens.revoked"
      run={() => api(`admin/tokens/${token.id}`, { method: 'DELETE' })}
    />
  )
}

/**
 * Monitor > API tokens: every account's tokens (GET /api/admin/tokens, `monitor:token:list`),
 * filtered by the owner's account, each revocable (`monitor:token:delete`, the grant rule: not
 * the tokens of an account holding more than the caller).
 */
export const ApiTokenList = () => (
  <List
    exporter={false}
    sort={NO_SORT}
    filters={[<TextInput key="account" source="account" alwaysOn />]}
  >
    <Grid>
      <TextField source="account" />
      <TextField source="nickname" />
      <TextField source="name" />
      <FunctionField source="hint" render={(token: ApiToken) => `…${token.hint}`} />
      <FunctionField
        source="permissions"
        render={(token: ApiToken) => token.permissions.join(', ')}
      />
      <FunctionField
        source="status"
        render={(token: ApiToken) => <ChoiceChip group="token_status" value={token.status} />}
      />
      <DateField source="createdAt" showTime />
      <DateField source="expiresAt" />
      <DateField source="lastUsedAt" showTime />
      <WrapperField label={ACTIONS_COLUMN} sortable={false}>
        <RowActions>
          <RevokeToken />
        </RowActions>
      </WrapperField>
    </Grid>
  </List>
)

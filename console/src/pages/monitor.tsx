import {
  ChipField,
  DateField,
  FilterButton,
  FunctionField,
  List,
  SelectInput,
  TextField,
  TextInput,
  TopToolbar,
  WrapperField,
} from 'react-admin'
import { api } from '../api'
import { ActionButton, Grid } from '../components'

const OUTCOMES = [
  'succeeded',
  'unknown_account',
  'wrong_password',
  'account_disabled',
  'captcha_token_invalid',
  'throttled',
]
const choices = (values: string[]) => values.map((id) => ({ id, name: id }))
const withFilterButton = (
  <TopToolbar>
    <FilterButton />
  </TopToolbar>
)

export const LoginLogList = () => (
  <List
    exporter={false}
    actions={withFilterButton}
    filters={[
      <TextInput key="account" source="account" alwaysOn />,
      <TextInput key="ip" source="ip" label="IP" />,
      <SelectInput key="outcome" source="outcome" choices={choices(OUTCOMES)} />,
    ]}
  >
    <Grid>
      <DateField source="createdAt" showTime />
      <TextField source="account" />
      <TextField source="ip" label="IP" />
      <ChipField source="outcome" size="small" />
      <TextField source="userAgent" />
    </Grid>
  </List>
)

export const AuditLogList = () => (
  <List
    exporter={false}
    actions={withFilterButton}
    filters={[
      <TextInput key="permission" source="permission" alwaysOn />,
      <TextInput key="targetType" source="targetType" />,
      <SelectInput key="outcome" source="outcome" choices={choices(['succeeded', 'refused'])} />,
    ]}
  >
    <Grid>
      <DateField source="createdAt" showTime />
      <TextField source="actor" />
      <TextField source="permission" />
      <FunctionField
        label="Target"
        render={(log) => `${log.targetType ?? ''} ${log.targetId ?? ''}`}
      />
      <ChipField source="outcome" size="small" />
      <TextField source="reason" />
      <FunctionField
        label="Changes"
        render={(log) => (log.changes ? JSON.stringify(log.changes) : '')}
      />
    </Grid>
  </List>
)

export const SessionList = () => (
  <List exporter={false} filters={[<TextInput key="account" source="account" alwaysOn />]}>
    <Grid>
      <TextField source="account" />
      <TextField source="nickname" />
      <TextField source="ip" label="IP" />
      <TextField source="userAgent" />
      <DateField source="createdAt" showTime />
      <DateField source="lastSeenAt" showTime />
      <WrapperField label="Actions" sortable={false}>
        <ActionButton
          code="monitor:session:delete"
          label="Force logout"
          confirm="End this session? Its next request will be sent back to the login page."
          done="Session ended"
          run={(session) => api(`admin/sessions/${session.id}`, { method: 'DELETE' })}
        />
      </WrapperField>
    </Grid>
  </List>
)

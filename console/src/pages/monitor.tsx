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
import {
  ActionButton,
  ExportCsvButton,
  Grid,
  NO_SORT,
  RowActions,
  ACTIONS_COLUMN,
} from '../components'

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
    <ExportCsvButton />
  </TopToolbar>
)

export const LoginLogList = () => (
  <List
    exporter={false}
    sort={NO_SORT}
    actions={withFilterButton}
    filters={[
      <TextInput key="account" source="account" alwaysOn />,
      <TextInput key="ip" source="ip" />,
      <SelectInput key="outcome" source="outcome" choices={choices(OUTCOMES)} />,
    ]}
  >
    <Grid>
      <DateField source="createdAt" showTime />
      <TextField source="account" />
      <TextField source="ip" />
      <ChipField source="outcome" size="small" />
      <TextField source="userAgent" />
    </Grid>
  </List>
)

export const AuditLogList = () => (
  <List
    exporter={false}
    sort={NO_SORT}
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
        source="target"
        render={(log) => `${log.targetType ?? ''} ${log.targetId ?? ''}`}
      />
      <ChipField source="outcome" size="small" />
      <TextField source="reason" />
      <FunctionField
        source="changes"
        render={(log) => (log.changes ? JSON.stringify(log.changes) : '')}
      />
    </Grid>
  </List>
)

export const SessionList = () => (
  <List
    exporter={false}
    sort={NO_SORT}
    filters={[<TextInput key="account" source="account" alwaysOn />]}
  >
    <Grid>
      <TextField source="account" />
      <TextField source="nickname" />
      <TextField source="ip" />
      <TextField source="userAgent" />
      <DateField source="createdAt" showTime />
      <DateField source="lastSeenAt" showTime />
      <WrapperField label={ACTIONS_COLUMN} sortable={false}>
        <RowActions>
          <ActionButton
            action="delete"
            label="app.action.force_logout"
            confirm="app.action.force_logout_confirm"
            done="app.action.session_ended"
            run={(session) => api(`admin/sessions/${session.id}`, { method: 'DELETE' })}
          />
        </RowActions>
      </WrapperField>
    </Grid>
  </List>
)

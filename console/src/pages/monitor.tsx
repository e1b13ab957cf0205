import {
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
  ChoiceChip,
  choicesOf,
  ExportButton,
  Grid,
  NO_SORT,
  RowActions,
  ACTIONS_COLUMN,
} from '../components'

const withFilterButton = (
  <TopToolbar>
    <FilterButton />
    <ExportButton />
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
      <SelectInput key="outcome" source="outcome" choices={choicesOf('login_outcome')} />,
    ]}
  >
    <Grid>
      <DateField source="createdAt" showTime />
      <TextField source="account" />
      <TextField source="ip" />
      <FunctionField
        source="outcome"
        render={(log) => <ChoiceChip group="login_outcome" value={log.outcome} />}
      />
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
      <SelectInput key="outcome" source="outcome" choices={choicesOf('audit_outcome')} />,
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
      <FunctionField
        source="outcome"
        render={(log) => <ChoiceChip group="audit_outcome" value={log.outcome} />}
      />
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

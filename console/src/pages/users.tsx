import {
  Create,
  DateField,
  DeleteButton,
  Edit,
  FunctionField,
  PasswordInput,
  ReferenceArrayInput,
  SelectArrayInput,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  TopToolbar,
  required,
  useRecordContext,
  WrapperField,
} from 'react-admin'
import { useAccess } from '../useAccess'
import { api } from '../api'
import {
  ActionButton,
  NO_SORT,
  PromptButton,
  ResourceList,
  RowActions,
  STATUS_CHOICES,
  ACTIONS_COLUMN,
} from '../components'
import { DeptFilterInput, DeptInput, DeptTreeFilter, useDeptNames } from './depts'
import { ImportUsersButton } from './userImport'
import { DictChip, useDictChoices } from '../useDict'

/** The account status as the sys_user_status dictionary names it. */
const USER_STATUS = 'sys_user_status'
const StatusInput = (props: { source: string; defaultValue?: string; disabled?: boolean }) => (
  <SelectInput {...props} choices={useDictChoices(USER_STATUS, STATUS_CHOICES)} />
)

const filters = [
  <TextInput key="keyword" source="keyword" label="app.search" alwaysOn />,
  <StatusInput key="status" source="status" />,
  <DeptFilterInput key="deptId" source="deptId" />,
]

/** The department's name (the tree the caller sees; an unseen one shows its id). */
const DeptName = ({ deptId }: { deptId: number | null }) => {
  const names = useDeptNames()
  if (deptId === null) return null
  return <>{names.get(deptId) ?? `#${deptId}`}</>
}

/** The role choices come from the roles list: without its code, no roles input. */
const RolesInput = () => {
  const can = useAccess()
  if (!can('roles', 'list')) return null
  return (
    <ReferenceArrayInput source="roleIds" reference="roles" perPage={100} sort={NO_SORT}>
      <SelectArrayInput optionText="name" label="resources.users.fields.roleIds" />
    </ReferenceArrayInput>
  )
}

/** Reset password, unlock, delete: in the row, and on the edit page (one place to reach them). */
const UserActions = () => (
  <RowActions>
    <PromptButton
      action="resetPassword"
      label="app.action.reset_password"
      field={{ label: 'app.action.new_password', type: 'password' }}
      done="app.action.password_reset"
      run={(user, password) =>
        api(`admin/users/${user.id}/password-reset`, { method: 'POST', body: { password } })
      }
    />
    <ActionButton
      action="unlock"
      label="app.action.unlock"
      done="app.action.unlocked"
      show={(user) => user.lockedUntil !== null}
      run={(user) => api(`admin/users/${user.id}/unlock`, { method: 'POST' })}
    />
    <DeleteButton mutationMode="pessimistic" />
  </RowActions>
)

export const UserList = () => (
  <ResourceList filters={filters} aside={<DeptTreeFilter />} actions={<ImportUsersButton />}>
    <TextField source="id" />
    <TextField source="account" />
    <TextField source="nickname" />
    <FunctionField
      source="status"
      render={(row) => (
        <DictChip code={USER_STATUS} value={row.status} fallback={`app.status.${row.status}`} />
      )}
    />
    <FunctionField source="deptId" render={(row) => <DeptName deptId={row.deptId} />} />
    <FunctionField
      source="roles"
      render={(user) => user.roles.map((role: { name: string }) => role.name).join(', ')}
    />
    <DateField source="lastLoginAt" showTime />
    <DateField source="lockedUntil" showTime />
    <WrapperField label={ACTIONS_COLUMN} sortable={false}>
      <UserActions />
    </WrapperField>
  </ResourceList>
)

export const UserCreate = () => (
  <Create redirect="list">
    <SimpleForm>
      <TextInput source="account" validate={required()} />
      <PasswordInput source="password" validate={required()} />
      <TextInput source="nickname" />
      <TextInput source="email" type="email" />
      <StatusInput source="status" defaultValue="enabled" />
      <DeptInput />
      <RolesInput />
    </SimpleForm>
  </Create>
)

/** Only where the server would take them: not your own status or roles. */
const UserFormParts = () => {
  const user = useRecordContext()
  const can = useAccess()
  return (
    <>
      <StatusInput source="status" disabled={!can('users', 'disable', user)} />
      <DeptInput />
      {can('users', 'assignRoles', user) && <RolesInput />}
    </>
  )
}

export const UserEdit = () => (
  <Edit
    mutationMode="pessimistic"
    redirect="list"
    actions={
      <TopToolbar>
        <UserActions />
      </TopToolbar>
    }
  >
    <SimpleForm>
      <TextInput source="account" disabled />
      <TextInput source="nickname" />
      <TextInput source="email" type="email" />
      <UserFormParts />
    </SimpleForm>
  </Edit>
)

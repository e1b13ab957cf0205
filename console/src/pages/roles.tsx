import {
  FunctionField,
  BooleanField,
  Create,
  DeleteButton,
  Edit,
  NumberInput,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  WrapperField,
  required,
  useRecordContext,
} from 'react-admin'
import { useAccess } from '../useAccess'
import { ResourceList, RowActions, STATUS_CHOICES, ACTIONS_COLUMN, StatusChip } from '../components'
import { MenuTreeInput } from './MenuTreeInput'
import { DataScopeInput } from './depts'

const filters = [
  <TextInput key="keyword" source="keyword" label="app.search" alwaysOn />,
  <SelectInput key="status" source="status" choices={STATUS_CHOICES} />,
]

export const RoleList = () => (
  <ResourceList filters={filters}>
    <TextField source="id" />
    <TextField source="code" />
    <TextField source="name" />
    <FunctionField source="status" render={(row) => <StatusChip value={row.status} />} />
    <BooleanField source="isSystem" />
    <TextField source="sort" />
    <WrapperField label={ACTIONS_COLUMN} sortable={false}>
      <RowActions>
        {/* Hidden by canAccess without the code, and on a system role (access.ts). */}
        <DeleteButton mutationMode="pessimistic" />
      </RowActions>
    </WrapperField>
  </ResourceList>
)

const fields = [
  <TextInput key="code" source="code" validate={required()} helperText="app.help.role_code" />,
  <TextInput key="name" source="name" validate={required()} />,
  <SelectInput key="status" source="status" choices={STATUS_CHOICES} defaultValue="enabled" />,
  <NumberInput key="sort" source="sort" defaultValue={0} />,
  <TextInput key="remark" source="remark" multiline />,
  <DataScopeInput key="dataScope" />,
]

export const RoleCreate = () => (
  <Create redirect="list">
    <SimpleForm>
      {fields}
      <MenuTreeInput source="menuIds" />
    </SimpleForm>
  </Create>
)

const RoleMenus = () => {
  const role = useRecordContext()
  const can = useAccess()
  if (!can('roles', 'assignMenus')) return null
  // A system role (the super-admin role holds everything implicitly): its menus cannot change.
  return <MenuTreeInput source="menuIds" disabled={!can('roles', 'assignMenus', role)} />
}

export const RoleEdit = () => (
  <Edit mutationMode="pessimistic" redirect="list">
    <SimpleForm>
      {fields}
      <RoleMenus />
    </SimpleForm>
  </Edit>
)

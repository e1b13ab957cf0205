import {
  BooleanField,
  ChipField,
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
import { useCan } from '../access'
import { STATUS_CHOICES, ResourceList } from '../components'
import { MenuTreeInput } from './MenuTreeInput'
import { DataScopeInput } from './depts'

const filters = [
  <TextInput key="keyword" source="keyword" label="Search" alwaysOn />,
  <SelectInput key="status" source="status" choices={STATUS_CHOICES} />,
]

const DeleteRole = () => {
  const role = useRecordContext()
  return role && !role.isSystem ? <DeleteButton mutationMode="pessimistic" /> : null
}

export const RoleList = () => {
  const can = useCan()
  return (
    <ResourceList filters={filters} create="system:role:create" update="system:role:update">
      <TextField source="id" />
      <TextField source="code" />
      <TextField source="name" />
      <ChipField source="status" size="small" />
      <BooleanField source="isSystem" label="System" />
      <TextField source="sort" />
      {can('system:role:delete') && (
        <WrapperField label="Actions" sortable={false}>
          <DeleteRole />
        </WrapperField>
      )}
    </ResourceList>
  )
}

const fields = [
  <TextInput
    key="code"
    source="code"
    validate={required()}
    helperText="lowercase letters, digits, _ and -"
  />,
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
  const can = useCan()
  if (!can('system:role:assign-menus')) return null
  // The super-admin role holds everything implicitly; its menus cannot be changed.
  return <MenuTreeInput source="menuIds" disabled={role?.isSystem} />
}

export const RoleEdit = () => (
  <Edit mutationMode="pessimistic" redirect="list">
    <SimpleForm>
      {fields}
      <RoleMenus />
    </SimpleForm>
  </Edit>
)

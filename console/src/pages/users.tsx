import {
  ChipField,
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
  required,
  WrapperField,
} from 'react-admin'
import { useCan } from '../access'
import { api } from '../api'
import { ActionButton, PromptButton, STATUS_CHOICES, ResourceList } from '../components'
import { DeptInput } from './depts'

const filters = [
  <TextInput key="keyword" source="keyword" label="Search" alwaysOn />,
  <SelectInput key="status" source="status" choices={STATUS_CHOICES} />,
]

const RolesInput = () => (
  <ReferenceArrayInput source="roleIds" reference="roles" perPage={100}>
    <SelectArrayInput optionText="name" label="Roles" />
  </ReferenceArrayInput>
)

export const UserList = () => {
  const can = useCan()
  return (
    <ResourceList filters={filters} create="system:user:create" update="system:user:update">
      <TextField source="id" />
      <TextField source="account" />
      <TextField source="nickname" />
      <ChipField source="status" size="small" />
      <FunctionField
        label="Roles"
        render={(user) => user.roles.map((role: { name: string }) => role.name).join(', ')}
      />
      <DateField source="lastLoginAt" showTime />
      <DateField source="lockedUntil" showTime />
      <WrapperField label="Actions" sortable={false}>
        <PromptButton
          code="system:user:reset-password"
          label="Reset password"
          field={{ label: 'New password', type: 'password' }}
          done="Password reset: the account's sessions have ended"
          run={(user, password) =>
            api(`admin/users/${user.id}/password-reset`, { method: 'POST', body: { password } })
          }
        />
        <ActionButton
          code="system:user:unlock"
          label="Unlock"
          done="Account unlocked"
          show={(user) => user.lockedUntil !== null}
          run={(user) => api(`admin/users/${user.id}/unlock`, { method: 'POST' })}
        />
        {can('system:user:delete') && <DeleteButton mutationMode="pessimistic" />}
      </WrapperField>
    </ResourceList>
  )
}

export const UserCreate = () => (
  <Create redirect="list">
    <SimpleForm>
      <TextInput source="account" validate={required()} />
      <PasswordInput source="password" validate={required()} />
      <TextInput source="nickname" />
      <TextInput source="email" type="email" />
      <SelectInput source="status" choices={STATUS_CHOICES} defaultValue="enabled" />
      <DeptInput />
      <RolesInput />
    </SimpleForm>
  </Create>
)

export const UserEdit = () => {
  const can = useCan()
  return (
    <Edit mutationMode="pessimistic" redirect="list">
      <SimpleForm>
        <TextInput source="account" disabled />
        <TextInput source="nickname" />
        <TextInput source="email" type="email" />
        <SelectInput source="status" choices={STATUS_CHOICES} />
        <DeptInput />
        {can('system:user:assign-roles') && <RolesInput />}
      </SimpleForm>
    </Edit>
  )
}

import { Link } from 'react-router-dom'
import {
  Button,
  Create,
  Edit,
  NumberInput,
  RecordContextProvider,
  FormDataConsumer,
  SelectArrayInput,
  SelectInput,
  SimpleForm,
  TextInput,
  Title,
  required,
} from 'react-admin'
import { useQuery } from '@tanstack/react-query'
import { Card, Chip, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material'
import { useAccess } from '../useAccess'
import { api, type Schemas } from '../api'
import { ActionButton, STATUS_CHOICES } from '../components'

type DeptNode = Schemas['DeptTree']
type Row = DeptNode & { depth: number }

const flatten = (nodes: DeptNode[], depth = 0): Row[] =>
  nodes.flatMap((node) => [{ ...node, depth }, ...flatten(node.children, depth + 1)])

/** The departments the caller sees (GET /api/admin/depts/tree): the server scopes the answer. */
export const useDeptTree = () =>
  useQuery({
    queryKey: ['depts', 'tree'],
    queryFn: async () => (await api<DeptNode[]>('admin/depts/tree')).data,
  })

/** The department tree as an indented table. */
export const DeptTree = () => {
  const { data = [] } = useDeptTree()
  const can = useAccess()
  return (
    <Card sx={{ mt: 2 }}>
      <Title title="Departments" />
      {can('depts', 'create') && (
        <Button component={Link} to="/depts/create" label="Add a department" sx={{ m: 1 }} />
      )}
      <Table size="small">
        <TableHead>
          <TableRow>
            {['Name', 'Sort', 'Status', ''].map((head) => (
              <TableCell key={head}>{head}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {flatten(data).map((node) => (
            <RecordContextProvider key={node.id} value={node}>
              <TableRow hover>
                <TableCell sx={{ pl: 2 + node.depth * 3 }}>{node.name}</TableCell>
                <TableCell>{node.sort}</TableCell>
                <TableCell>
                  <Chip size="small" label={node.status} />
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {can('depts', 'create') && (
                    <Button
                      component={Link}
                      to="/depts/create"
                      state={{ record: { parentId: node.id } }}
                      label="Add child"
                    />
                  )}
                  {can('depts', 'edit') && (
                    <Button component={Link} to={`/depts/${node.id}`} label="Edit" />
                  )}
                  <ActionButton
                    action="delete"
                    label="Delete"
                    confirm={`Delete "${node.name}"?`}
                    done="Department deleted"
                    show={(dept) => dept.children.length === 0}
                    run={(dept) => api(`admin/depts/${dept.id}`, { method: 'DELETE' })}
                  />
                </TableCell>
              </TableRow>
            </RecordContextProvider>
          ))}
        </TableBody>
      </Table>
    </Card>
  )
}

/** A department picker over the tree the caller sees (also used on users). */
export const DeptInput = ({ source = 'deptId', label }: { source?: string; label?: string }) => {
  const { data = [] } = useDeptTree()
  return (
    <SelectInput source={source} label={label} choices={deptChoices(data)} emptyText="(none)" />
  )
}

const deptChoices = (tree: DeptNode[]) =>
  flatten(tree).map((node) => ({ id: node.id, name: `${'— '.repeat(node.depth)}${node.name}` }))

const SCOPES = ['all', 'dept_and_children', 'dept', 'self', 'custom'].map((scope) => ({
  id: scope,
  name: scope.replaceAll('_', ' '),
}))

/** A role's data scope; the departments of a `custom` scope among those the caller sees. */
export const DataScopeInput = () => {
  const { data = [] } = useDeptTree()
  return (
    <>
      <SelectInput source="dataScope" choices={SCOPES} defaultValue="self" />
      <FormDataConsumer>
        {({ formData }) =>
          formData.dataScope === 'custom' && (
            <SelectArrayInput source="deptIds" choices={deptChoices(data)} />
          )
        }
      </FormDataConsumer>
    </>
  )
}

const DeptForm = () => (
  <SimpleForm>
    <DeptInput source="parentId" label="Parent" />
    <TextInput source="name" validate={required()} />
    <NumberInput source="sort" defaultValue={0} />
    <SelectInput source="status" choices={STATUS_CHOICES} defaultValue="enabled" />
  </SimpleForm>
)

export const DeptCreate = () => (
  <Create redirect="list">
    <DeptForm />
  </Create>
)

export const DeptEdit = () => (
  <Edit mutationMode="pessimistic" redirect="list">
    <DeptForm />
  </Edit>
)

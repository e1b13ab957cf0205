import { Link } from 'react-router-dom'
import Add from '@mui/icons-material/Add'
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
  useListContext,
  useResourceDefinition,
  useTranslate,
} from 'react-admin'
import { useQuery } from '@tanstack/react-query'
import {
  Card,
  List,
  ListItemButton,
  ListItemText,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
} from '@mui/material'
import { useAccess } from '../useAccess'
import { api, type Schemas } from '../api'
import {
  ActionButton,
  RowActions,
  STATUS_CHOICES,
  StatusChip,
  choicesOf,
  useNarrow,
} from '../components'

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
  const translate = useTranslate()
  const { options } = useResourceDefinition()
  return (
    <Card sx={{ mt: 2 }}>
      <Title title={translate(options?.label ?? 'Departments', { _: options?.label })} />
      {can('depts', 'create') && (
        <Button component={Link} to="/depts/create" label="app.depts.add" sx={{ m: 1 }}>
          <Add />
        </Button>
      )}
      <Table size="small">
        <TableHead>
          <TableRow>
            {['name', 'sort', 'status', ''].map((head) => (
              <TableCell key={head}>
                {head &&
                  translate(`resources.depts.fields.${head}`, {
                    _: head[0].toUpperCase() + head.slice(1),
                  })}
              </TableCell>
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
                  <StatusChip value={node.status} />
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  <RowActions>
                    {can('depts', 'create') && (
                      <Button
                        component={Link}
                        to="/depts/create"
                        state={{ record: { parentId: node.id } }}
                        label="app.action.add_child"
                      />
                    )}
                    {can('depts', 'edit') && (
                      <Button component={Link} to={`/depts/${node.id}`} label="ra.action.edit" />
                    )}
                    <ActionButton
                      action="delete"
                      label="ra.action.delete"
                      confirm="app.depts.delete_confirm"
                      confirmArgs={{ name: node.name }}
                      done="app.depts.deleted"
                      show={(dept) => dept.children.length === 0}
                      run={(dept) => api(`admin/depts/${dept.id}`, { method: 'DELETE' })}
                    />
                  </RowActions>
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
    <SelectInput
      source={source}
      label={label}
      choices={deptChoices(data)}
      emptyText="app.depts.none"
      translateChoice={false}
    />
  )
}

/** Department id -> name, for a list's department column. */
export const useDeptNames = () => {
  const { data = [] } = useDeptTree()
  return new Map(flatten(data).map((node) => [node.id, node.name]))
}

/**
 * A list's department filter as the tree beside it (`deptId`: the department and those below it,
 * the server's rule): a click narrows the list, "All departments" clears it. Not on a phone
 * (the filter menu's department input does the same there), nor without the tree's code.
 */
export function DeptTreeFilter() {
  const { data = [], isError } = useDeptTree()
  const { filterValues, setFilters, displayedFilters } = useListContext()
  const translate = useTranslate()
  const narrow = useNarrow()
  if (narrow || isError || !data.length) return null
  const current = filterValues.deptId
  const pick = (deptId?: number) => {
    const { deptId: _, ...rest } = filterValues
    setFilters(deptId === undefined ? rest : { ...rest, deptId }, displayedFilters)
  }
  return (
    <Card sx={{ order: -1, mr: 2, mt: 8, width: 220, flexShrink: 0, alignSelf: 'flex-start' }}>
      <List dense data-testid="dept-filter" aria-label={translate('app.depts.filter')}>
        <ListItemButton selected={current === undefined} onClick={() => pick()}>
          <ListItemText primary={translate('app.depts.all')} />
        </ListItemButton>
        {flatten(data).map((node) => (
          <ListItemButton
            key={node.id}
            selected={Number(current) === node.id}
            sx={{ pl: 2 + node.depth * 2 }}
            onClick={() => pick(node.id)}
          >
            <ListItemText primary={node.name} />
          </ListItemButton>
        ))}
      </List>
    </Card>
  )
}

/** The same filter as an input (the filter menu; the only one on a phone). */
export const DeptFilterInput = (props: { source: string; alwaysOn?: boolean }) => {
  const { data = [] } = useDeptTree()
  return (
    <SelectInput
      source={props.source}
      label="app.depts.filter"
      choices={deptChoices(data)}
      translateChoice={false}
    />
  )
}

const deptChoices = (tree: DeptNode[]) =>
  flatten(tree).map((node) => ({ id: node.id, name: `${'— '.repeat(node.depth)}${node.name}` }))

/** A role's data scope; the departments of a `custom` scope among those the caller sees. */
export const DataScopeInput = () => {
  const { data = [] } = useDeptTree()
  return (
    <>
      <SelectInput source="dataScope" choices={choicesOf('data_scope')} defaultValue="self" />
      <FormDataConsumer>
        {({ formData }) =>
          formData.dataScope === 'custom' && (
            <SelectArrayInput
              source="deptIds"
              choices={deptChoices(data)}
              translateChoice={false}
            />
          )
        }
      </FormDataConsumer>
    </>
  )
}

const DeptForm = () => (
  <SimpleForm>
    <DeptInput source="parentId" />
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

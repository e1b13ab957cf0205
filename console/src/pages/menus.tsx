import { Link } from 'react-router-dom'
import {
  BooleanInput,
  Button,
  Create,
  Edit,
  NumberInput,
  RecordContextProvider,
  SelectInput,
  SimpleForm,
  TextInput,
  Title,
  required,
  useResourceDefinition,
  useTranslate,
} from 'react-admin'
import Add from '@mui/icons-material/Add'
import { Card, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material'
import { useAccess } from '../useAccess'
import { api } from '../api'
import {
  ActionButton,
  RowActions,
  STATUS_CHOICES,
  StatusChip,
  choicesOf,
  useNarrow,
} from '../components'
import { type TreeNode, useMenuTree } from './MenuTreeInput'

type Row = TreeNode & { depth: number }

const flatten = (nodes: TreeNode[], depth = 0): Row[] =>
  nodes.flatMap((node) => [{ ...node, depth }, ...flatten(node.children, depth + 1)])

/** The whole menu tree (GET /api/admin/menus/tree) as an indented table. */
export const MenuTree = () => {
  const { data = [] } = useMenuTree()
  const can = useAccess()
  const translate = useTranslate()
  const { options } = useResourceDefinition()
  // On a phone the actions come first, where the wide table cannot hide them.
  const narrow = useNarrow()
  const actions = (node: Row) => (
    <TableCell sx={{ whiteSpace: 'nowrap' }}>
      <RowActions>
        {can('menus', 'create') && node.type !== 'button' && (
          <Button
            component={Link}
            to="/menus/create"
            state={{ record: { parentId: node.id } }}
            label="app.action.add_child"
          />
        )}
        {can('menus', 'edit', node) && (
          <Button component={Link} to={`/menus/${node.id}`} label="ra.action.edit" />
        )}
        <ActionButton
          action="delete"
          label="ra.action.delete"
          confirm="app.action.menu_delete_confirm"
          confirmArgs={{ name: node.name }}
          done="app.action.menu_deleted"
          run={(menu) => api(`admin/menus/${menu.id}`, { method: 'DELETE' })}
        />
      </RowActions>
    </TableCell>
  )
  return (
    <Card sx={{ mt: 2, overflowX: 'auto' }}>
      <Title title={translate(options?.label ?? 'Menus', { _: options?.label })} />
      {can('menus', 'create') && (
        <Button component={Link} to="/menus/create" label="app.action.add_top_level" sx={{ m: 1 }}>
          <Add />
        </Button>
      )}
      <Table size="small">
        <TableHead>
          <TableRow>
            {[
              ...(narrow ? [''] : []),
              'name',
              'type',
              'path',
              'permission',
              'sort',
              'visible',
              'status',
              ...(narrow ? [] : ['']),
            ].map((head) => (
              <TableCell key={head}>
                {head &&
                  translate(`resources.menus.fields.${head}`, {
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
                {narrow && actions(node)}
                <TableCell sx={{ pl: 2 + node.depth * 3 }}>
                  {translate(node.name, { _: node.name })}
                </TableCell>
                <TableCell>{translate(`app.choice.menu_type.${node.type}`)}</TableCell>
                <TableCell>{node.path}</TableCell>
                <TableCell>{node.permission}</TableCell>
                <TableCell>{node.sort}</TableCell>
                <TableCell>
                  {translate(node.visible ? 'ra.boolean.true' : 'ra.boolean.false')}
                </TableCell>
                <TableCell>
                  <StatusChip value={node.status} />
                </TableCell>
                {!narrow && actions(node)}
              </TableRow>
            </RecordContextProvider>
          ))}
        </TableBody>
      </Table>
    </Card>
  )
}

const ParentInput = () => {
  const { data = [] } = useMenuTree()
  const translate = useTranslate()
  const choices = flatten(data)
    .filter((node) => node.type !== 'button')
    .map((node) => ({
      id: node.id,
      name: `${'— '.repeat(node.depth)}${translate(node.name, { _: node.name })}`,
    }))
  return (
    <SelectInput
      source="parentId"
      choices={choices}
      emptyText="app.menus.top_level"
      translateChoice={false}
    />
  )
}

const MenuForm = () => (
  <SimpleForm>
    <ParentInput />
    <SelectInput source="type" validate={required()} choices={choicesOf('menu_type')} />
    <TextInput source="name" validate={required()} />
    <TextInput source="path" helperText="app.help.menu_path" />
    <TextInput source="component" helperText="app.help.menu_component" />
    <TextInput source="icon" />
    <TextInput source="permission" helperText="app.help.menu_permission" />
    <NumberInput source="sort" defaultValue={0} />
    <BooleanInput source="visible" defaultValue />
    <SelectInput source="status" choices={STATUS_CHOICES} defaultValue="enabled" />
  </SimpleForm>
)

export const MenuCreate = () => (
  <Create redirect="list">
    <MenuForm />
  </Create>
)

export const MenuEdit = () => (
  <Edit mutationMode="pessimistic" redirect="list">
    <MenuForm />
  </Edit>
)

import { useState } from 'react'
import {
  Button,
  Confirm,
  Create,
  DateField,
  DeleteButton,
  Edit,
  FunctionField,
  HttpError,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  WrapperField,
  required,
  useNotify,
  useRecordContext,
  useTranslate,
} from 'react-admin'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import {
  Box,
  Chip,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField as MuiTextField,
  Typography,
  type ChipProps,
} from '@mui/material'
import Add from '@mui/icons-material/Add'
import { api, type Schemas } from '../api'
import { useAccess } from '../useAccess'
import {
  ACTIONS_COLUMN,
  PhoneDialog,
  ResourceList,
  RowActions,
  STATUS_CHOICES,
  StatusChip,
} from '../components'

type DictType = Schemas['DictType']
type DictItem = Schemas['DictItem']

const filters = [
  <TextInput key="keyword" source="keyword" label="app.search" alwaysOn />,
  <SelectInput key="status" source="status" choices={STATUS_CHOICES} />,
]

/** The chip colours an item's css class may name; any other class is applied as written. */
const COLOURS = ['default', 'primary', 'secondary', 'error', 'info', 'success', 'warning']

const itemsKey = (code: string) => ['dict-items', code]

/** A type's items, every status (GET /api/admin/dicts/:code/items), in the server's order. */
const useItems = (code: string) =>
  useQuery({
    queryKey: itemsKey(code),
    queryFn: async () =>
      (await api<DictItem[]>(`admin/dicts/${code}/items`, { query: { pageSize: 100 } })).data,
  })

type Draft = { label: string; value: string; sort: string; status: string; cssClass: string }
const EMPTY: Draft = { label: '', value: '', sort: '0', status: 'enabled', cssClass: '' }

/** Add or edit one item: the API's field errors (422, 409 on a taken value) under the fields. */
function ItemDialog(props: { code: string; item?: DictItem; onClose: () => void }) {
  const translate = useTranslate()
  const notify = useNotify()
  const queryClient = useQueryClient()
  const { item } = props
  const [draft, setDraft] = useState<Draft>(
    item
      ? { ...item, sort: String(item.sort), cssClass: item.cssClass ?? '' }
      : { ...EMPTY, sort: '0' }
  )
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  const field = (name: keyof Draft) => ({
    name,
    label: translate(`resources.dicts.fields.items.${name}`),
    value: draft[name],
    error: Boolean(errors[name]),
    helperText: errors[name],
    onChange: (event: { target: { value: string } }) =>
      setDraft({ ...draft, [name]: event.target.value }),
    margin: 'dense' as const,
    fullWidth: true,
  })
  const save = async () => {
    setBusy(true)
    const body = {
      label: draft.label,
      value: draft.value,
      sort: Number(draft.sort) || 0,
      status: draft.status,
      cssClass: draft.cssClass.trim() || null,
    }
    try {
      const path = `admin/dicts/${props.code}/items`
      if (item) await api(`${path}/${item.id}`, { method: 'PUT', body })
      else await api(path, { method: 'POST', body })
      await queryClient.invalidateQueries({ queryKey: itemsKey(props.code) })
      await queryClient.invalidateQueries({ queryKey: ['dict', props.code] })
      notify('app.dicts.item_saved', { type: 'success' })
      props.onClose()
    } catch (error) {
      const fields = (error as HttpError).body?.errors ?? {}
      setErrors(fields)
      if (Object.keys(fields).length === 0) notify((error as Error).message, { type: 'error' })
    } finally {
      setBusy(false)
    }
  }
  return (
    <PhoneDialog open onClose={props.onClose} fullWidth maxWidth="xs">
      <DialogTitle>{translate(item ? 'app.dicts.edit_item' : 'app.dicts.add_item')}</DialogTitle>
      <DialogContent>
        <MuiTextField {...field('label')} autoFocus required />
        <MuiTextField {...field('value')} required />
        <MuiTextField {...field('sort')} type="number" />
        <MuiTextField {...field('status')} select>
          {STATUS_CHOICES.map((choice) => (
            <MenuItem key={choice.id} value={choice.id}>
              {translate(choice.name)}
            </MenuItem>
          ))}
        </MuiTextField>
        <MuiTextField {...field('cssClass')} helperText={errors.cssClass ?? COLOURS.join(', ')} />
      </DialogContent>
      <DialogActions>
        <Button label="ra.action.cancel" onClick={props.onClose} />
        <Button
          label="ra.action.save"
          variant="contained"
          disabled={busy || !draft.label.trim() || !draft.value.trim()}
          onClick={save}
        />
      </DialogActions>
    </PhoneDialog>
  )
}

/** An item's chip as the console draws it (DictChip): its colour or class. */
const ItemChip = ({ item }: { item: DictItem }) => {
  const colour = COLOURS.includes(item.cssClass ?? '') ? item.cssClass : undefined
  return (
    <Chip
      size="small"
      label={item.label}
      color={(colour ?? 'default') as ChipProps['color']}
      className={colour ? undefined : (item.cssClass ?? undefined)}
    />
  )
}

/**
 * A dictionary's items, under its row in the list: added, edited and deleted in place, each
 * button with its code (system:dict:create, :update, :delete).
 */
export function DictItems() {
  const type = useRecordContext<DictType>()
  const translate = useTranslate()
  const notify = useNotify()
  const can = useAccess()
  const queryClient = useQueryClient()
  const { data: items = [], isPending } = useItems(type?.code ?? '')
  const [editing, setEditing] = useState<DictItem | 'new' | null>(null)
  const [deleting, setDeleting] = useState<DictItem | null>(null)
  if (!type) return null
  const remove = async (item: DictItem) => {
    setDeleting(null)
    try {
      await api(`admin/dicts/${type.code}/items/${item.id}`, { method: 'DELETE' })
      notify('app.dicts.item_deleted', { type: 'success' })
    } catch (error) {
      notify((error as Error).message, { type: 'error' })
    }
    await queryClient.invalidateQueries({ queryKey: itemsKey(type.code) })
    await queryClient.invalidateQueries({ queryKey: ['dict', type.code] })
  }
  const head = ['label', 'value', 'sort', 'status', 'cssClass']
  return (
    <Box sx={{ pl: 6, pb: 2 }} data-testid={`dict-items-${type.code}`}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        <Typography variant="subtitle2">{translate('app.dicts.items')}</Typography>
        {can('dicts', 'create') && (
          <Button label="app.dicts.add_item" onClick={() => setEditing('new')}>
            <Add />
          </Button>
        )}
      </Box>
      <Table size="small">
        <TableHead>
          <TableRow>
            {head.map((name) => (
              <TableCell key={name}>{translate(`resources.dicts.fields.items.${name}`)}</TableCell>
            ))}
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {!isPending && items.length === 0 && (
            <TableRow>
              <TableCell colSpan={head.length + 1}>{translate('app.dicts.no_items')}</TableCell>
            </TableRow>
          )}
          {items.map((item) => (
            <TableRow key={item.id} hover>
              <TableCell>
                <ItemChip item={item} />
              </TableCell>
              <TableCell>{item.value}</TableCell>
              <TableCell>{item.sort}</TableCell>
              <TableCell>
                <StatusChip value={item.status} />
              </TableCell>
              <TableCell>{item.cssClass}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <RowActions>
                  {can('dicts', 'edit') && (
                    <Button label="ra.action.edit" onClick={() => setEditing(item)} />
                  )}
                  {can('dicts', 'delete') && (
                    <Button
                      label="ra.action.delete"
                      color="error"
                      onClick={() => setDeleting(item)}
                    />
                  )}
                </RowActions>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {editing && (
        <ItemDialog
          code={type.code}
          item={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      )}
      <Confirm
        isOpen={deleting !== null}
        title="app.dicts.delete_item"
        content="app.dicts.delete_item_confirm"
        translateOptions={{ label: deleting?.label ?? '' }}
        onConfirm={() => remove(deleting!)}
        onClose={() => setDeleting(null)}
      />
    </Box>
  )
}

export const DictList = () => (
  <ResourceList filters={filters} expand={<DictItems />}>
    <TextField source="id" />
    <TextField source="code" />
    <TextField source="name" />
    <FunctionField source="status" render={(row) => <StatusChip value={row.status} />} />
    <TextField source="remark" />
    <DateField source="createdAt" showTime />
    <WrapperField label={ACTIONS_COLUMN} sortable={false}>
      <RowActions>
        <DeleteButton mutationMode="pessimistic" />
      </RowActions>
    </WrapperField>
  </ResourceList>
)

const DictForm = ({ create }: { create?: boolean }) => (
  <SimpleForm>
    <TextInput
      source="code"
      validate={create ? required() : undefined}
      disabled={!create}
      helperText={create ? 'app.dicts.code_help' : 'app.dicts.code_fixed'}
    />
    <TextInput source="name" validate={required()} />
    <SelectInput source="status" choices={STATUS_CHOICES} defaultValue="enabled" />
    <TextInput source="remark" multiline fullWidth />
  </SimpleForm>
)

export const DictCreate = () => (
  <Create redirect="list">
    <DictForm create />
  </Create>
)

/** The type's fields, and its items below them. */
export const DictEdit = () => (
  <Edit mutationMode="pessimistic" redirect="list">
    <DictForm />
    <DictItems />
  </Edit>
)

import { Children, cloneElement, isValidElement, useState } from 'react'
import type { ReactElement, ReactNode } from 'react'
import {
  Button,
  Confirm,
  CreateButton,
  Datagrid,
  FilterButton,
  List,
  TopToolbar,
  useListContext,
  useLogoutIfAccessDenied,
  useNotify,
  useRecordContext,
  useRefresh,
  useResourceContext,
  useTranslate,
} from 'react-admin'
import {
  Chip,
  Dialog,
  DialogActions,
  type DialogProps,
  DialogContent,
  DialogTitle,
  IconButton,
  Menu,
  MenuItem,
  TextField,
  ThemeProvider,
  useMediaQuery,
  type Theme,
} from '@mui/material'
import Download from '@mui/icons-material/Download'
import MoreVert from '@mui/icons-material/MoreVert'
import type { Action, Resource } from './access'
import { useAccess } from './useAccess'
import { apiError, apiUrl, authHeaders } from './api'
import { SORTABLE, listQuery } from './dataProvider'
import { en } from './i18n/en'

export const STATUS_CHOICES = [
  { id: 'enabled', name: 'app.status.enabled' },
  { id: 'disabled', name: 'app.status.disabled' },
]

/** An enabled/disabled status as a chip, in the console's language. */
export function StatusChip({ value }: { value: string }) {
  const translate = useTranslate()
  return <Chip size="small" label={translate(`app.status.${value}`, { _: value })} />
}

/** A group of API enum values with their texts (i18n: `app.choice.<group>.<value>`). */
export type ChoiceGroup = keyof typeof en.app.choice

/** Select-input choices of an enum: react-admin translates the names. */
export const choicesOf = <G extends ChoiceGroup>(group: G) =>
  Object.keys(en.app.choice[group]).map((id) => ({ id, name: `app.choice.${group}.${id}` }))

/** An enum value (a log's outcome, a token's status) as a chip, in the console's language. */
export function ChoiceChip({ group, value }: { group: ChoiceGroup; value: string }) {
  const translate = useTranslate()
  return <Chip size="small" label={translate(`app.choice.${group}.${value}`, { _: value })} />
}

/** The label of a list's row-actions column (RowActions): first on a phone, last otherwise. */
export const ACTIONS_COLUMN = 'app.actions'
const isActions = (child: ReactNode) =>
  isValidElement(child) && (child.props as { label?: string }).label === ACTIONS_COLUMN

export const useNarrow = () => useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'))

/**
 * A list table. Columns are sort buttons only where the API sorts on request (SORTABLE, the
 * server's allow-list); rows open the edit page where the account may edit that row. On a phone
 * the actions column comes first, where a table wider than the screen cannot hide it.
 */
export function Grid({
  children,
  rowClick,
  expand,
}: {
  children: ReactNode
  rowClick?: 'edit' | false
  /** A panel under a row, opened by its expand button (a dictionary's items). */
  expand?: ReactElement
}) {
  const resource = useResourceContext() as Resource
  const can = useAccess()
  const narrow = useNarrow()
  const sortable = new Set<string>(SORTABLE[resource] ?? [])
  const columns = Children.toArray(children)
  if (narrow) columns.sort((a, b) => Number(isActions(b)) - Number(isActions(a)))
  return (
    <Datagrid
      rowClick={
        rowClick === 'edit'
          ? (_id, _resource, record) => (can(resource, 'edit' as never, record) ? 'edit' : false)
          : false
      }
      bulkActionButtons={false}
      expand={expand}
    >
      {columns.map((child) =>
        isValidElement(child)
          ? cloneElement(child as ReactElement<{ sortable?: boolean; source?: string }>, {
              sortable: sortable.has((child.props as { source?: string }).source ?? ''),
            })
          : child
      )}
    </Datagrid>
  )
}

/** The export formats the API offers (GET .../export?format=), each with its file type. */
const EXPORT_FORMATS = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const
type ExportFormat = keyof typeof EXPORT_FORMATS

/**
 * A menu of the export formats downloading `GET /api/admin/<path>?...&format=` with the bearer
 * token (a link could not send it), saved as `<name>-<date>.<format>`.
 */
export function ExportMenu(props: {
  path: string
  query?: Record<string, unknown>
  name: string
  /** The button opening the menu. */
  trigger: (open: (event: { currentTarget: HTMLElement }) => void, busy: boolean) => ReactNode
}) {
  const notify = useNotify()
  const translate = useTranslate()
  const [busy, setBusy] = useState(false)
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  const run = async (format: ExportFormat) => {
    setAnchor(null)
    setBusy(true)
    try {
      const url = apiUrl(`admin/${props.path}`, { ...props.query, format })
      const response = await fetch(url, {
        headers: { Accept: EXPORT_FORMATS[format], ...authHeaders() },
      })
      if (!response.ok) throw await apiError(response)
      const href = URL.createObjectURL(await response.blob())
      const link = document.createElement('a')
      link.href = href
      link.download = `${props.name}-${new Date().toISOString().slice(0, 10)}.${format}`
      link.click()
      setTimeout(() => URL.revokeObjectURL(href), 10_000)
      notify('app.export.done', { type: 'success' })
    } catch (error) {
      notify((error as Error).message, { type: 'error' })
    } finally {
      setBusy(false)
    }
  }
  return (
    <>
      {props.trigger((event) => setAnchor(event.currentTarget), busy)}
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {(Object.keys(EXPORT_FORMATS) as ExportFormat[]).map((format) => (
          <MenuItem key={format} onClick={() => run(format)}>
            {translate(`app.export.${format}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  )
}

/**
 * A list's export (`GET /api/admin/<resource>/export?format=csv|xlsx`) with its current filters
 * and sort. Shown with the export code only.
 */
export function ExportButton() {
  const resource = useResourceContext() as Resource
  const { filterValues, sort } = useListContext()
  const can = useAccess()
  if (!can(resource, 'export' as never)) return null
  return (
    <ExportMenu
      path={`${resource}/export`}
      query={listQuery(resource, filterValues, sort)}
      name={resource}
      trigger={(open, busy) => (
        <Button label="ra.action.export" onClick={open} disabled={busy} aria-haspopup="menu">
          <Download />
        </Button>
      )}
    />
  )
}

/**
 * Filters, Create (react-admin hides it without the create code), Export (with its code) and a
 * page's own buttons (`children`, each gated by its page).
 */
export const ListActions = ({ children }: { children?: ReactNode }) => (
  <TopToolbar>
    <FilterButton />
    <CreateButton />
    <ExportButton />
    {children}
  </TopToolbar>
)

/** The list page of a resource: the default sort is the server's (no `sort` sent). */
export function ResourceList(props: {
  filters: ReactElement[]
  children: ReactNode
  aside?: ReactElement
  actions?: ReactNode
  expand?: ReactElement
}) {
  return (
    <List
      filters={props.filters}
      exporter={false}
      sort={NO_SORT}
      actions={<ListActions>{props.actions}</ListActions>}
      aside={props.aside}
    >
      <Grid rowClick="edit" expand={props.expand}>
        {props.children}
      </Grid>
    </List>
  )
}
export const NO_SORT = { field: '', order: 'ASC' } as const

/**
 * react-admin draws its buttons as bare icons on a phone (`down('sm')`), and an action without an
 * icon as nothing visible: inside the actions menu they keep their labels.
 */
const withLabels = (outer: Theme): Theme => ({
  ...outer,
  breakpoints: {
    ...outer.breakpoints,
    down: (key) => (key === 'sm' ? '@media (max-width:-1px)' : outer.breakpoints.down(key)),
  },
})

/**
 * A dialog that works on a phone: full screen there (its content scrolls, its buttons stay in
 * view at the bottom), and react-admin's buttons inside keep their labels (withLabels). Wider
 * screens get the plain dialog.
 */
export function PhoneDialog(props: DialogProps) {
  const narrow = useNarrow()
  return (
    <Dialog {...props} fullScreen={narrow || props.fullScreen}>
      <ThemeProvider theme={withLabels}>{props.children}</ThemeProvider>
    </Dialog>
  )
}

/**
 * A row's actions: buttons in the row on a wide screen; behind one "more" button on a phone
 * (labelled buttons in a menu). The menu stays mounted so a dialog an action opened survives
 * the menu closing.
 */
export function RowActions({ children }: { children: ReactNode }) {
  const narrow = useNarrow()
  const translate = useTranslate()
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  if (!narrow) return <span style={{ whiteSpace: 'nowrap' }}>{children}</span>
  return (
    <>
      <IconButton
        size="small"
        aria-label={translate('app.more_actions')}
        onClick={(event) => {
          event.stopPropagation()
          setAnchor(event.currentTarget)
        }}
      >
        <MoreVert fontSize="small" />
      </IconButton>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        keepMounted
        onClick={(event) => event.stopPropagation()}
      >
        <div
          onClickCapture={() => setAnchor(null)}
          style={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start' }}
        >
          <ThemeProvider theme={withLabels}>{children}</ThemeProvider>
        </div>
      </Menu>
    </>
  )
}

/** Runs one API action and refreshes the page; the error message from the API is shown as is. */
function useAction() {
  const notify = useNotify()
  const refresh = useRefresh()
  const logoutIfAccessDenied = useLogoutIfAccessDenied()
  return async (run: () => Promise<unknown>, done: string) => {
    try {
      await run()
      notify(done, { type: 'success' })
    } catch (error) {
      // A 401 ends the session (back to the login page); anything else is shown.
      if (await logoutIfAccessDenied(error)) return
      notify((error as Error).message, { type: 'error' })
    }
    refresh()
  }
}

/** Whether this row offers `action` (access.ts: the code, and the server's rules for the row). */
function useOffered(action: string, show?: (record: any) => boolean) {
  const record = useRecordContext()
  const resource = useResourceContext() as Resource
  const can = useAccess()
  const offered =
    Boolean(record) && can(resource, action as Action, record) && (!show || show(record))
  return { record, offered }
}

/**
 * A row action (publish, unlock, force logout, ...): shown only where access.ts allows `action`
 * on this row, optionally behind a confirmation. Labels and messages are translation keys.
 */
export function ActionButton(props: {
  action: string
  label: string
  icon?: ReactNode
  confirm?: string
  confirmArgs?: Record<string, unknown>
  done: string
  run: (record: any) => Promise<unknown>
  show?: (record: any) => boolean
}) {
  const { record, offered } = useOffered(props.action, props.show)
  const action = useAction()
  const [open, setOpen] = useState(false)
  if (!offered) return null
  const go = () => action(() => props.run(record), props.done)
  return (
    <>
      <Button
        label={props.label}
        onClick={(event) => {
          event.stopPropagation()
          if (props.confirm) setOpen(true)
          else go()
        }}
      >
        <>{props.icon}</>
      </Button>
      {props.confirm && (
        <Confirm
          isOpen={open}
          title={props.label}
          content={props.confirm}
          translateOptions={props.confirmArgs}
          onConfirm={() => {
            setOpen(false)
            go()
          }}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  )
}

/** A row action that asks for one value first (a new password, a publication date). */
export function PromptButton(props: {
  action: string
  label: string
  field: { label: string; type: string; initial?: string }
  done: string
  run: (record: any, value: string) => Promise<unknown>
  show?: (record: any) => boolean
}) {
  const { record, offered } = useOffered(props.action, props.show)
  const translate = useTranslate()
  const action = useAction()
  const [value, setValue] = useState<string | null>(null)
  if (!offered) return null
  const close = () => setValue(null)
  return (
    <>
      <Button
        label={props.label}
        onClick={(event) => {
          event.stopPropagation()
          setValue(props.field.initial ?? '')
        }}
      />
      <PhoneDialog
        open={value !== null}
        onClose={close}
        onClick={(event) => event.stopPropagation()}
      >
        <DialogTitle>{translate(props.label)}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            margin="dense"
            fullWidth
            name="prompt"
            label={translate(props.field.label)}
            type={props.field.type}
            value={value ?? ''}
            onChange={(event) => setValue(event.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </DialogContent>
        <DialogActions>
          <Button label="ra.action.cancel" onClick={close} />
          <Button
            label="ra.action.confirm"
            variant="contained"
            disabled={!value}
            onClick={() => {
              const entered = value!
              close()
              action(() => props.run(record, entered), props.done)
            }}
          />
        </DialogActions>
      </PhoneDialog>
    </>
  )
}

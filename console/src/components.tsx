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
  useLogoutIfAccessDenied,
  useNotify,
  useRecordContext,
  useRefresh,
} from 'react-admin'
import { Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material'
import { IfCan, useCan } from './access'

export const STATUS_CHOICES = [
  { id: 'enabled', name: 'enabled' },
  { id: 'disabled', name: 'disabled' },
]

/**
 * A list table. The API pages but does not sort on request, so the column headers are not
 * sort buttons; rows open the edit page when `rowClick` is 'edit'.
 */
export function Grid({ children, rowClick }: { children: ReactNode; rowClick?: 'edit' | false }) {
  return (
    <Datagrid rowClick={rowClick ?? false} bulkActionButtons={false}>
      {Children.map(children, (child) =>
        isValidElement(child)
          ? cloneElement(child as ReactElement<{ sortable?: boolean }>, { sortable: false })
          : child
      )}
    </Datagrid>
  )
}

/**
 * The list page of an editable resource: filters, a Create button only with the `create` code,
 * rows that open the edit page only with the `update` code.
 */
export function ResourceList(props: {
  filters: ReactElement[]
  create: string
  update: string
  children: ReactNode
}) {
  const can = useCan()
  return (
    <List
      filters={props.filters}
      exporter={false}
      actions={
        <TopToolbar>
          <FilterButton />
          <IfCan code={props.create}>
            <CreateButton />
          </IfCan>
        </TopToolbar>
      }
    >
      <Grid rowClick={can(props.update) ? 'edit' : false}>{props.children}</Grid>
    </List>
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

/**
 * A row action (publish, unlock, force logout, ...): shown only with the permission `code`,
 * optionally behind a confirmation.
 */
export function ActionButton(props: {
  code: string
  label: string
  icon?: ReactNode
  confirm?: string
  done: string
  run: (record: any) => Promise<unknown>
  show?: (record: any) => boolean
}) {
  const record = useRecordContext()
  const can = useCan()
  const action = useAction()
  const [open, setOpen] = useState(false)
  if (!record || !can(props.code) || (props.show && !props.show(record))) return null
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
  code: string
  label: string
  field: { label: string; type: string; initial?: string }
  done: string
  run: (record: any, value: string) => Promise<unknown>
  show?: (record: any) => boolean
}) {
  const record = useRecordContext()
  const can = useCan()
  const action = useAction()
  const [value, setValue] = useState<string | null>(null)
  if (!record || !can(props.code) || (props.show && !props.show(record))) return null
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
      <Dialog open={value !== null} onClose={close} onClick={(event) => event.stopPropagation()}>
        <DialogTitle>{props.label}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            margin="dense"
            fullWidth
            name="prompt"
            label={props.field.label}
            type={props.field.type}
            value={value ?? ''}
            onChange={(event) => setValue(event.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </DialogContent>
        <DialogActions>
          <Button label="Cancel" onClick={close} />
          <Button
            label="Confirm"
            variant="contained"
            disabled={!value}
            onClick={() => {
              const entered = value!
              close()
              action(() => props.run(record, entered), props.done)
            }}
          />
        </DialogActions>
      </Dialog>
    </>
  )
}

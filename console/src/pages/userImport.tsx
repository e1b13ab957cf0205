import { useRef, useState } from 'react'
import { Button, useNotify, useRefresh, useTranslate } from 'react-admin'
import {
  Alert,
  Box,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material'
import UploadFile from '@mui/icons-material/UploadFile'
import ContentCopy from '@mui/icons-material/ContentCopy'
import Download from '@mui/icons-material/Download'
import { apiError, apiUrl, authHeaders, type Schemas } from '../api'
import { currentLocale } from '../i18n/errors'
import { useAccess } from '../useAccess'
import { PhoneDialog } from '../components'

type Result = Schemas['UserImportResult']
type RowError = Result['errors'][number]

/** The template (GET /api/admin/users/import/template), downloaded with the bearer token. */
async function downloadTemplate() {
  const response = await fetch(apiUrl('admin/users/import/template'), {
    headers: { Accept: 'text/csv', ...authHeaders() },
  })
  if (!response.ok) throw await apiError(response)
  const href = URL.createObjectURL(await response.blob())
  const link = document.createElement('a')
  link.href = href
  link.download = 'users-import.csv'
  link.click()
  setTimeout(() => URL.revokeObjectURL(href), 10_000)
}

/**
 * POST /api/admin/users/import?dryRun=: the result, or the refused rows of a real import (422,
 * or 403 when a row grants or places beyond the caller) as the same per-row errors. A problem
 * with the file itself (type, size, header) is thrown as the API's error.
 */
async function upload(file: File, dryRun: boolean): Promise<Result> {
  const body = new FormData()
  body.append('file', file)
  const response = await fetch(apiUrl('admin/users/import', { dryRun }), {
    method: 'POST',
    headers: {
      'Accept': 'application/json',
      'Accept-Language': currentLocale() === 'zh' ? 'zh-CN' : 'en',
      ...authHeaders(),
    },
    body,
  })
  if (response.ok) return (await response.json()).data
  const copy = response.clone()
  const payload = await response.json().catch(() => ({}))
  const rows: RowError[] = (payload.errors ?? []).filter(
    (entry: Partial<RowError>) => typeof entry.row === 'number'
  )
  if (rows.length) return { dryRun, rows: 0, errors: rows, created: [] }
  throw await apiError(copy)
}

/** Copies a text: the clipboard where the page may use it, else a hidden text area. */
async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text)
  } catch {
    const area = document.createElement('textarea')
    area.value = text
    document.body.appendChild(area)
    area.select()
    document.execCommand('copy')
    area.remove()
  }
}

function ErrorsTable({ errors }: { errors: RowError[] }) {
  const translate = useTranslate()
  return (
    <Table size="small" data-testid="import-errors">
      <TableHead>
        <TableRow>
          {['row', 'field', 'code', 'message'].map((name) => (
            <TableCell key={name}>{translate(`app.user_import.${name}`)}</TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {errors.map((error, index) => (
          <TableRow key={index}>
            <TableCell>{error.row}</TableCell>
            <TableCell>{error.field}</TableCell>
            <TableCell>{error.code}</TableCell>
            <TableCell>{error.message}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}

/** The created accounts and their initial passwords: shown once, with copy buttons. */
function CreatedTable({ created }: { created: Result['created'] }) {
  const translate = useTranslate()
  const notify = useNotify()
  const copied = () => notify('app.user_import.copied', { type: 'info' })
  const all = created.map((entry) => `${entry.account}\t${entry.initialPassword}`).join('\n')
  return (
    <>
      <Alert severity="warning" sx={{ my: 1 }}>
        {translate('app.user_import.passwords_once')}
      </Alert>
      <Button
        label="app.user_import.copy_all"
        onClick={() => copy(all).then(copied)}
        data-testid="import-copy-all"
      >
        <ContentCopy />
      </Button>
      <Table size="small" data-testid="import-created">
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.user_import.account')}</TableCell>
            <TableCell>{translate('app.user_import.initial_password')}</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {created.map((entry) => (
            <TableRow key={entry.id}>
              <TableCell>{entry.account}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace' }}>{entry.initialPassword}</TableCell>
              <TableCell>
                <Tooltip title={translate('app.user_import.copy')}>
                  <IconButton
                    size="small"
                    aria-label={translate('app.user_import.copy')}
                    onClick={() => copy(entry.initialPassword).then(copied)}
                  >
                    <ContentCopy fontSize="small" />
                  </IconButton>
                </Tooltip>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  )
}

/**
 * The users list's Import button (system:user:import): a dialog to download the template, pick a
 * CSV or XLSX file, check it (a dry run: every row's problems, nothing written), then import it
 * (all or nothing) and see the generated passwords once.
 */
export function ImportUsersButton() {
  const can = useAccess()
  const translate = useTranslate()
  const notify = useNotify()
  const refresh = useRefresh()
  const input = useRef<HTMLInputElement>(null)
  const [open, setOpen] = useState(false)
  const [file, setFile] = useState<File | null>(null)
  const [result, setResult] = useState<Result | null>(null)
  const [busy, setBusy] = useState(false)
  if (!can('users', 'import')) return null

  const reset = () => {
    setFile(null)
    setResult(null)
    if (input.current) input.current.value = ''
  }
  const close = () => {
    if (result?.created.length) refresh()
    setOpen(false)
    reset()
  }
  const run = async (dryRun: boolean) => {
    if (!file) return
    setBusy(true)
    try {
      const answer = await upload(file, dryRun)
      setResult(answer)
      if (!dryRun && answer.created.length) {
        notify('app.user_import.imported', {
          type: 'success',
          messageArgs: { smart_count: answer.created.length },
        })
      }
    } catch (error) {
      setResult(null)
      notify((error as Error).message, { type: 'error' })
    } finally {
      setBusy(false)
    }
  }
  const checked = result?.dryRun === true && result.errors.length === 0
  const done = result?.dryRun === false && result.created.length > 0

  return (
    <>
      <Button label="app.user_import.button" onClick={() => setOpen(true)}>
        <UploadFile />
      </Button>
      <PhoneDialog open={open} onClose={close} fullWidth maxWidth="md">
        <DialogTitle>{translate('app.user_import.title')}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {translate('app.user_import.intro')}
          </Typography>
          <Button
            label="app.user_import.template"
            onClick={() =>
              downloadTemplate().catch((error) => notify(error.message, { type: 'error' }))
            }
          >
            <Download />
          </Button>
          {!done && (
            <Box sx={{ my: 2 }}>
              <input
                ref={input}
                type="file"
                name="file"
                accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                onChange={(event) => {
                  setFile(event.target.files?.[0] ?? null)
                  setResult(null)
                }}
              />
            </Box>
          )}
          {result && result.errors.length > 0 && (
            <>
              <Alert severity="error" sx={{ my: 1 }} data-testid="import-summary">
                {translate(
                  result.dryRun ? 'app.user_import.check_failed' : 'app.user_import.refused',
                  {
                    smart_count: result.errors.length,
                  }
                )}
              </Alert>
              <ErrorsTable errors={result.errors} />
            </>
          )}
          {checked && (
            <Alert severity="success" sx={{ my: 1 }} data-testid="import-summary">
              {translate('app.user_import.check_passed', { smart_count: result.rows })}
            </Alert>
          )}
          {done && <CreatedTable created={result.created} />}
        </DialogContent>
        <DialogActions>
          <Button label={done ? 'ra.action.close' : 'ra.action.cancel'} onClick={close} />
          {!done && (
            <Button
              label="app.user_import.dry_run"
              variant={checked ? 'outlined' : 'contained'}
              disabled={!file || busy}
              onClick={() => run(true)}
            />
          )}
          {!done && (
            <Button
              label="app.user_import.import"
              variant="contained"
              disabled={!file || busy || !checked}
              onClick={() => run(false)}
            />
          )}
        </DialogActions>
      </PhoneDialog>
    </>
  )
}

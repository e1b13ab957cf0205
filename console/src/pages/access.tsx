import { useEffect, useState, type ReactNode } from 'react'
import {
  HttpError,
  Title,
  useNotify,
  usePermissions,
  useResourceDefinition,
  useTranslate,
} from 'react-admin'
import {
  Autocomplete,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Stack,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tabs,
  TextField,
  Typography,
} from '@mui/material'
import { api, type Schemas } from '../api'
import type { Me } from '../authProvider'
import { ExportMenu, useNarrow } from '../components'

type AccessUser = Schemas['AccessUser']
type Holder = Schemas['AccessHolder']
type Change = Schemas['AccessChange']
type PageMeta = Schemas['PageMeta']

const PAGE_SIZE = 20

/** "System > Users > Query": a grant's menu path (seeded names translated, as in the sidebar). */
const pathText = (path: { name: string }[], translate: (key: string, options?: any) => string) =>
  path.map((node) => translate(node.name, { _: node.name })).join(' › ')

/**
 * Loads `load()` whenever `key` changes (null: nothing to load). A 404 (an account outside the
 * caller's data scope, an unknown code) is an answer of its own; other errors are notified.
 */
function useAnswer<T>(key: string | null, load: () => Promise<T>) {
  const notify = useNotify()
  const [answer, setAnswer] = useState<T | 'not_found' | null>(null)
  useEffect(() => {
    if (key === null) return setAnswer(null)
    let current = true
    load()
      .then((value) => current && setAnswer(value))
      .catch((error: Error) => {
        if (!current) return
        const missing = error instanceof HttpError && error.status === 404
        setAnswer(missing ? 'not_found' : null)
        if (!missing) notify(error.message, { type: 'error' })
      })
    return () => {
      current = false
    }
    // `load` is rebuilt each render; `key` says when it asks something else.
  }, [key])
  return answer
}

function NotFound() {
  const translate = useTranslate()
  return (
    <Typography sx={{ mt: 2 }} color="text.secondary">
      {translate('app.access.not_found')}
    </Typography>
  )
}

function Pager({ meta, onPage }: { meta: PageMeta; onPage: (page: number) => void }) {
  const translate = useTranslate()
  return (
    <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center' }}>
      <Button disabled={meta.pageNum <= 1} onClick={() => onPage(meta.pageNum - 1)}>
        {translate('ra.navigation.previous')}
      </Button>
      <Typography variant="body2">
        {translate('app.access.page', {
          page: meta.pageNum,
          pages: meta.lastPage,
          total: meta.total,
        })}
      </Typography>
      <Button disabled={meta.pageNum >= meta.lastPage} onClick={() => onPage(meta.pageNum + 1)}>
        {translate('ra.navigation.next')}
      </Button>
    </Stack>
  )
}

function ByUser({ userId, onUser }: { userId: number | null; onUser: (id: number) => void }) {
  const translate = useTranslate()
  const [text, setText] = useState(userId ? String(userId) : '')
  const review = useAnswer<AccessUser>(userId === null ? null : String(userId), async () => {
    const { data } = await api<AccessUser>(`admin/access/users/${userId}`)
    return data
  })
  const scope =
    review && review !== 'not_found'
      ? review.scope.all
        ? translate('app.access.scope_all')
        : [
            review.scope.deptIds.length
              ? translate('app.access.scope_depts', { ids: review.scope.deptIds.join(', ') })
              : '',
            review.scope.self ? translate('app.access.scope_self') : '',
          ]
            .filter(Boolean)
            .join('; ') || translate('app.access.scope_none')
      : ''
  return (
    <Box>
      <Stack
        direction="row"
        spacing={1}
        component="form"
        onSubmit={(event) => {
          event.preventDefault()
          const id = Number(text)
          if (Number.isSafeInteger(id) && id > 0) onUser(id)
        }}
      >
        <TextField
          size="small"
          label={translate('app.access.user_id')}
          value={text}
          onChange={(event) => setText(event.target.value.replace(/\D/g, ''))}
          slotProps={{ htmlInput: { 'data-testid': 'access-user-id', 'inputMode': 'numeric' } }}
        />
        <Button type="submit" variant="contained">
          {translate('app.access.show')}
        </Button>
      </Stack>
      {review === 'not_found' && <NotFound />}
      {review && review !== 'not_found' && (
        <Box sx={{ mt: 2 }} data-testid="access-user">
          <Typography variant="h6">
            {review.user.account} ({review.user.nickname}) #{review.user.id}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ my: 1, flexWrap: 'wrap' }}>
            {review.isSuperAdmin && (
              <Chip color="warning" label={translate('app.access.super_admin')} />
            )}
            {review.roles.map((role) => (
              <Chip
                key={role.id}
                label={`${role.name}${role.status === 'enabled' ? '' : ` (${translate('app.access.disabled')})`}`}
                variant={role.status === 'enabled' ? 'filled' : 'outlined'}
              />
            ))}
          </Stack>
          <Typography variant="body2">{translate('app.access.scope', { scope })}</Typography>
          <Table size="small" sx={{ mt: 1 }}>
            <TableHead>
              <TableRow>
                <TableCell>{translate('app.access.code')}</TableCell>
                <TableCell>{translate('app.access.why')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {review.codes.map(({ code, grants }) => (
                <TableRow key={code}>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{code}</TableCell>
                  <TableCell>
                    {grants.map((grant, i) => (
                      <div key={i}>
                        <b>{grant.role.name}</b>
                        {grant.path.length ? `: ${pathText(grant.path, translate)}` : ''}
                      </div>
                    ))}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Typography variant="subtitle1" sx={{ mt: 2 }}>
            {translate('app.access.tokens')}
          </Typography>
          {review.tokens.length === 0 ? (
            <Typography variant="body2">{translate('app.access.no_tokens')}</Typography>
          ) : (
            review.tokens.map((token) => (
              <Typography variant="body2" key={token.id}>
                {token.name} (…{token.hint}): {token.effective.join(', ') || '—'}
              </Typography>
            ))
          )}
        </Box>
      )}
    </Box>
  )
}

function ByCode({ onUser }: { onUser: (id: number) => void }) {
  const translate = useTranslate()
  const { permissions: me } = usePermissions<Me>()
  const [code, setCode] = useState<string | null>(null)
  const [page, setPage] = useState(1)
  const answer = useAnswer(code === null ? null : `${code}|${page}`, () =>
    api<Holder[]>(`admin/access/codes/${encodeURIComponent(code!)}`, {
      query: { pageNum: page, pageSize: PAGE_SIZE },
    })
  )
  return (
    <Box>
      <Autocomplete
        freeSolo
        size="small"
        sx={{ maxWidth: 420 }}
        // The codes this account holds; any other can be typed.
        options={[...(me?.permissions ?? [])].sort()}
        onChange={(_event, value) => {
          setPage(1)
          setCode(value ? String(value).trim() : null)
        }}
        renderInput={(params) => <TextField {...params} label={translate('app.access.code')} />}
      />
      {answer === 'not_found' && <NotFound />}
      {answer && answer !== 'not_found' && (
        <Box sx={{ mt: 2 }} data-testid="access-holders">
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{translate('app.access.account')}</TableCell>
                <TableCell>{translate('app.access.roles')}</TableCell>
                <TableCell>{translate('app.access.tokens')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {answer.data.map((holder) => (
                <TableRow
                  key={holder.id}
                  hover
                  sx={{ cursor: 'pointer' }}
                  onClick={() => onUser(holder.id)}
                >
                  <TableCell>
                    {holder.account} ({holder.nickname})
                  </TableCell>
                  <TableCell>{holder.roles.map((role) => role.name).join(', ')}</TableCell>
                  <TableCell>
                    {holder.tokens.map((token) => `${token.name} (…${token.hint})`).join(', ')}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {answer.meta && <Pager meta={answer.meta} onPage={setPage} />}
        </Box>
      )}
    </Box>
  )
}

/** A datetime-local value (the browser's time zone) for a Date. */
const localInput = (date: Date) =>
  new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16)

function refs(items: { id: number; name: string | null }[]) {
  return items.map((item) => item.name ?? `#${item.id}`).join(', ')
}

function Changes() {
  const translate = useTranslate()
  const [from, setFrom] = useState(() => localInput(new Date(Date.now() - 30 * 86_400_000)))
  const [to, setTo] = useState(() => localInput(new Date(Date.now() + 60_000)))
  const [page, setPage] = useState(1)
  const [asked, setAsked] = useState({ from, to })
  const answer = useAnswer(`${asked.from}|${asked.to}|${page}`, () =>
    api<Change[]>('admin/access/changes', {
      query: {
        from: new Date(asked.from).toISOString(),
        to: new Date(asked.to).toISOString(),
        pageNum: page,
        pageSize: PAGE_SIZE,
      },
    })
  )
  const describe = (change: Change): ReactNode[] => {
    const lines: ReactNode[] = []
    const { added, removed } = change
    if (added.roles.length) lines.push(`+ ${translate('app.access.roles')}: ${refs(added.roles)}`)
    if (removed.roles.length)
      lines.push(`− ${translate('app.access.roles')}: ${refs(removed.roles)}`)
    if (added.codes.length) lines.push(`+ ${added.codes.join(', ')}`)
    if (removed.codes.length) lines.push(`− ${removed.codes.join(', ')}`)
    if (change.scope) {
      const side = (s: NonNullable<Change['scope']>['before']) =>
        [s.dataScope, s.deptIds ? `[${s.deptIds.join(', ')}]` : null].filter(Boolean).join(' ')
      lines.push(
        `${translate('app.access.scope_change')}: ${side(change.scope.before)} → ${side(change.scope.after)}`
      )
    }
    if (change.status) lines.push(`${change.status.before} → ${change.status.after}`)
    if (change.deleted) lines.push(translate('app.access.deleted'))
    return lines
  }
  return (
    <Box>
      <Stack
        direction="row"
        spacing={1}
        component="form"
        onSubmit={(event) => {
          event.preventDefault()
          setPage(1)
          setAsked({ from, to })
        }}
      >
        <TextField
          size="small"
          type="datetime-local"
          label={translate('app.access.from')}
          value={from}
          onChange={(event) => setFrom(event.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          size="small"
          type="datetime-local"
          label={translate('app.access.to')}
          value={to}
          onChange={(event) => setTo(event.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Button type="submit" variant="contained">
          {translate('app.access.show')}
        </Button>
      </Stack>
      {answer && answer !== 'not_found' && (
        <Box sx={{ mt: 2 }} data-testid="access-changes">
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{translate('app.access.when')}</TableCell>
                <TableCell>{translate('app.access.actor')}</TableCell>
                <TableCell>{translate('app.access.subject')}</TableCell>
                <TableCell>{translate('app.access.change')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {answer.data.map((change) => (
                <TableRow key={change.id}>
                  <TableCell>{new Date(change.createdAt).toLocaleString()}</TableCell>
                  <TableCell>{change.actor}</TableCell>
                  <TableCell>
                    {translate(`app.access.subject_${change.subject.type}`)}{' '}
                    {change.subject.name ?? `#${change.subject.id}`}
                  </TableCell>
                  <TableCell>
                    {describe(change).map((line, i) => (
                      <div key={i}>{line}</div>
                    ))}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {answer.meta && <Pager meta={answer.meta} onPage={setPage} />}
        </Box>
      )}
    </Box>
  )
}

/** The users x codes matrix (GET /api/admin/access/export?format=csv|xlsx) as a download. */
function ExportMatrix() {
  const translate = useTranslate()
  return (
    <ExportMenu
      path="access/export"
      name="access-matrix"
      trigger={(open, busy) => (
        <Button onClick={open} disabled={busy} aria-haspopup="menu">
          {translate('app.access.export')}
        </Button>
      )}
    />
  )
}

/**
 * Monitor > Access review (`monitor:access:list`): what an account holds and why, who holds a
 * code, and the grants and revocations of a period, from /api/admin/access/*.
 */
export function AccessReview() {
  const translate = useTranslate()
  const { options } = useResourceDefinition()
  const { permissions: me } = usePermissions<Me>()
  const narrow = useNarrow()
  const [tab, setTab] = useState(0)
  // The caller's own account first: what "why" looks like, on an account it knows.
  const [chosen, setUserId] = useState<number | null>(null)
  const userId = chosen ?? me?.user.id ?? null
  const showUser = (id: number) => {
    setUserId(id)
    setTab(0)
  }
  return (
    <Card sx={{ mt: 2 }}>
      <Title title={translate(options?.label ?? 'Access review', { _: options?.label })} />
      <CardContent>
        <Stack
          direction="row"
          sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap' }}
        >
          {/* On a phone the tabs share the width (labels wrap) rather than hide the last one. */}
          <Tabs
            value={tab}
            onChange={(_event, value: number) => setTab(value)}
            variant={narrow ? 'fullWidth' : 'standard'}
            sx={narrow ? { width: '100%' } : undefined}
          >
            <Tab label={translate('app.access.by_user')} />
            <Tab label={translate('app.access.by_code')} />
            <Tab label={translate('app.access.changes')} />
          </Tabs>
          <ExportMatrix />
        </Stack>
        <Box sx={{ mt: 2 }}>
          {tab === 0 && <ByUser key={userId ?? 0} userId={userId} onUser={showUser} />}
          {tab === 1 && <ByCode onUser={showUser} />}
          {tab === 2 && <Changes />}
        </Box>
      </CardContent>
    </Card>
  )
}

import { useState } from 'react'
import { useTranslate } from 'react-admin'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Badge, Box, Button, IconButton, Popover, Tooltip, Typography } from '@mui/material'
import Notifications from '@mui/icons-material/Notifications'
import { Link } from 'react-router-dom'
import { api, type Schemas } from './api'
import { OWN_NOTICES_ROUTE } from './pages/ownNotices'

type OwnNotices = Schemas['OwnNotices']

/**
 * The app bar's notices (GET /api/auth/notices): the unread count on a bell, the notices in a
 * popover, unread first; opening one marks it read. `bodyHtml` is rendered by the server from
 * Markdown with raw HTML off (every text escaped), so it is shown as HTML.
 */
export function NoticesBell() {
  const translate = useTranslate()
  const queryClient = useQueryClient()
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  const { data } = useQuery({
    queryKey: ['own-notices'],
    queryFn: async () => (await api<OwnNotices>('auth/notices')).data,
    refetchInterval: 60_000,
    retry: false,
  })
  if (!data) return null
  const read = async (id: number) => {
    await api(`auth/notices/${id}/read`, { method: 'POST' })
    await queryClient.invalidateQueries({ queryKey: ['own-notices'] })
  }
  return (
    <>
      <Tooltip title={translate('app.notices')}>
        <IconButton color="inherit" onClick={(event) => setAnchor(event.currentTarget)}>
          <Badge badgeContent={data.unread} color="error" data-testid="notices-unread">
            <Notifications />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Box sx={{ p: 2, width: 360, maxHeight: 480 }}>
          <Button component={Link} to={OWN_NOTICES_ROUTE} onClick={() => setAnchor(null)}>
            {translate('app.own_notices.open')}
          </Button>
          {data.notices.length === 0 && <Typography>{translate('app.notices_none')}</Typography>}
          {data.notices.map((notice) => (
            <Box key={notice.id} sx={{ mb: 2, opacity: notice.read ? 0.6 : 1 }}>
              <Typography variant="subtitle2">
                {notice.title} · {translate(`app.notice_level.${notice.level}`)}
              </Typography>
              <Typography
                variant="body2"
                component="div"
                dangerouslySetInnerHTML={{ __html: notice.bodyHtml }}
              />
              {!notice.read && (
                <Button size="small" onClick={() => read(notice.id)}>
                  {translate('app.notice_mark_read')}
                </Button>
              )}
            </Box>
          ))}
        </Box>
      </Popover>
    </>
  )
}

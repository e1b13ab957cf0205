import { Title, useTranslate } from 'react-admin'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Box, Button, Card, CardContent, Chip, Stack, Typography } from '@mui/material'
import { api, type Schemas } from '../api'
import { LevelChip } from './notices'

type OwnNotices = Schemas['OwnNotices']

/** The route of the page (the bell links to it); every signed-in administrator has it. */
export const OWN_NOTICES_ROUTE = '/my-notices'

/**
 * The notices published to administrators (GET /api/auth/notices: the latest 100, unread first),
 * with their server-rendered bodies; "Mark read" posts /api/auth/notices/:id/read. Shares its
 * query with the app bar's bell, so the unread count follows.
 */
export function OwnNoticesPage() {
  const translate = useTranslate()
  const queryClient = useQueryClient()
  const { data, isPending } = useQuery({
    queryKey: ['own-notices'],
    queryFn: async () => (await api<OwnNotices>('auth/notices')).data,
  })
  const read = async (id: number) => {
    await api(`auth/notices/${id}/read`, { method: 'POST' })
    await queryClient.invalidateQueries({ queryKey: ['own-notices'] })
  }
  return (
    <Box sx={{ mt: 2, maxWidth: 900 }}>
      <Title title={translate('app.own_notices.title')} />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="own-unread">
        {translate('app.own_notices.unread', { smart_count: data?.unread ?? 0 })}
      </Typography>
      {!isPending && data?.notices.length === 0 && (
        <Typography>{translate('app.notices_none')}</Typography>
      )}
      <Stack spacing={2}>
        {data?.notices.map((notice) => (
          <Card
            key={notice.id}
            variant={notice.read ? 'outlined' : 'elevation'}
            data-testid="own-notice"
            data-read={notice.read}
          >
            <CardContent>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography variant="h6" sx={{ mr: 1 }}>
                  {notice.title}
                </Typography>
                <LevelChip value={notice.level} />
                {!notice.read && (
                  <Chip size="small" color="primary" label={translate('app.own_notices.new')} />
                )}
                <Typography variant="caption" color="text.secondary">
                  {notice.publishedAt && new Date(notice.publishedAt).toLocaleString()}
                </Typography>
              </Stack>
              <Typography
                variant="body2"
                component="div"
                sx={{ opacity: notice.read ? 0.75 : 1 }}
                dangerouslySetInnerHTML={{ __html: notice.bodyHtml }}
              />
              {!notice.read && (
                <Button size="small" onClick={() => read(notice.id)}>
                  {translate('app.notice_mark_read')}
                </Button>
              )}
            </CardContent>
          </Card>
        ))}
      </Stack>
    </Box>
  )
}

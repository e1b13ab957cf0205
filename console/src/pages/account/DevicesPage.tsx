import { useState } from 'react'
import {
  Button,
  Confirm,
  Datagrid,
  FunctionField,
  ListContextProvider,
  ResourceContextProvider,
  useList,
  useLocaleState,
  useLogout,
  useLogoutIfAccessDenied,
  useNotify,
  useRecordContext,
  useTranslate,
} from 'react-admin'
import { Alert, Box, Card, CardContent, Chip, Typography } from '@mui/material'
import Delete from '@mui/icons-material/Delete'
import { useQueryClient } from '@tanstack/react-query'
import { api, tokens, type Schemas } from '../../api'
import { formatDateTime } from '../../SignInNotice'
import { AccountPage, useAccountQuery } from './common'

type Device = Schemas['OwnDevice']
/** useAccountQuery's key of the list. */
const DEVICES_KEY = ['account', 'devices']

/** "Chrome on Linux" from a user agent, when it names both; undefined otherwise. */
function describe(userAgent: string) {
  const browser = [
    ['Edg/', 'Edge'],
    ['OPR/', 'Opera'],
    ['Firefox/', 'Firefox'],
    ['Chrome/', 'Chrome'],
    ['Chromium/', 'Chromium'],
    ['Safari/', 'Safari'],
  ].find(([mark]) => userAgent.includes(mark))?.[1]
  const system = [
    ['Android', 'Android'],
    ['iPhone', 'iOS'],
    ['iPad', 'iPadOS'],
    ['Windows', 'Windows'],
    ['Mac OS X', 'macOS'],
    ['CrOS', 'ChromeOS'],
    ['Linux', 'Linux'],
  ].find(([mark]) => userAgent.includes(mark))?.[1]
  return browser && system ? `${browser} · ${system}` : undefined
}

/**
 * GET /api/auth/devices, DELETE /api/auth/devices/:id: the browsers holding a device token of the
 * account (the owner's keys), the one of this session marked. Revoking one ends the sessions it
 * signed in, so revoking this browser's own signs it out.
 */
export function DevicesPage() {
  const translate = useTranslate()
  const [locale] = useLocaleState()
  const devices = useAccountQuery<Device[]>('devices', 'auth/devices')
  const list = useList({ data: devices.data ?? [], isPending: devices.isPending, perPage: 100 })
  const when = (iso: string) => formatDateTime(iso, locale)

  return (
    <AccountPage>
      <Card>
        <CardContent>
          <Typography variant="h6" gutterBottom>
            {translate('app.devices.title')}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {translate('app.devices.intro')}
          </Typography>
          {devices.error && <Alert severity="error">{(devices.error as Error).message}</Alert>}
          {/* A react-admin table over a plain query; rows need a resource name, any will do. */}
          <ResourceContextProvider value="account/devices">
            <ListContextProvider value={list}>
              <Datagrid
                bulkActionButtons={false}
                rowClick={false}
                empty={
                  <Typography color="text.secondary">{translate('app.devices.none')}</Typography>
                }
                data-testid="device-list"
              >
                <FunctionField
                  label="app.devices.device"
                  sortable={false}
                  render={(device: Device) => <DeviceName device={device} />}
                />
                <FunctionField
                  label="app.devices.last_used"
                  sortable={false}
                  render={(device: Device) => when(device.lastUsedAt)}
                />
                <FunctionField
                  label="app.devices.ip"
                  sortable={false}
                  render={(device: Device) => device.ip ?? '—'}
                />
                <FunctionField
                  label="app.devices.remembers_second_factor"
                  sortable={false}
                  render={(device: Device) =>
                    translate(device.remembersSecondFactor ? 'ra.message.yes' : 'ra.message.no')
                  }
                />
                <FunctionField
                  label="app.devices.created"
                  sortable={false}
                  render={(device: Device) => when(device.createdAt)}
                />
                <FunctionField
                  label="app.devices.expires"
                  sortable={false}
                  render={(device: Device) => when(device.expiresAt)}
                />
                <RevokeButton />
              </Datagrid>
            </ListContextProvider>
          </ResourceContextProvider>
        </CardContent>
      </Card>
    </AccountPage>
  )
}

/** The browser and system (the whole user agent under it), this device marked. */
function DeviceName({ device }: { device: Device }) {
  const translate = useTranslate()
  const summary = device.userAgent ? describe(device.userAgent) : undefined
  return (
    <Box sx={{ maxWidth: 360 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="body2" sx={{ fontWeight: 500 }}>
          {summary ?? device.userAgent ?? translate('app.devices.unknown_agent')}
        </Typography>
        {device.current && (
          <Chip
            size="small"
            color="primary"
            label={translate('app.devices.current')}
            data-testid="current-device"
          />
        )}
      </Box>
      {summary && (
        <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
          {device.userAgent}
        </Typography>
      )}
    </Box>
  )
}

function RevokeButton() {
  const device = useRecordContext<Device>()
  const notify = useNotify()
  const logout = useLogout()
  const logoutIfAccessDenied = useLogoutIfAccessDenied()
  const queryClient = useQueryClient()
  const [open, setOpen] = useState(false)
  if (!device) return null
  const revoke = async () => {
    setOpen(false)
    try {
      await api(`auth/devices/${encodeURIComponent(device.id)}`, { method: 'DELETE' })
    } catch (failure) {
      if (await logoutIfAccessDenied(failure)) return
      notify((failure as Error).message, { type: 'error' })
      await queryClient.invalidateQueries({ queryKey: DEVICES_KEY })
      return
    }
    if (device.current) {
      // This session ended with its device: a new browser from now on, on the login page.
      tokens.forgetDevice()
      await logout(null, undefined, false)
      return
    }
    notify('app.devices.revoked', { type: 'success' })
    await queryClient.invalidateQueries({ queryKey: DEVICES_KEY })
  }
  return (
    <>
      <Button label="app.devices.revoke" color="error" onClick={() => setOpen(true)}>
        <Delete />
      </Button>
      <Confirm
        isOpen={open}
        title="app.devices.revoke_title"
        content={
          device.current ? 'app.devices.revoke_current_confirm' : 'app.devices.revoke_confirm'
        }
        onConfirm={revoke}
        onClose={() => setOpen(false)}
      />
    </>
  )
}

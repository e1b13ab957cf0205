import { useEffect, useState } from 'react'
import type { ReactNode } from 'react'
import {
  Button,
  MenuItemLink,
  Title,
  useLogoutIfAccessDenied,
  useNotify,
  usePermissions,
  useTranslate,
  useUserMenu,
} from 'react-admin'
import { Box, Tab, Tabs, Typography } from '@mui/material'
import AccountCircle from '@mui/icons-material/AccountCircle'
import ContentCopy from '@mui/icons-material/ContentCopy'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useLocation } from 'react-router-dom'
import { api, fetchImage } from '../../api'
import type { Me } from '../../authProvider'

/** The account routes (App.tsx registers them; the user menu links to the first). */
export const ACCOUNT_ROUTES = {
  profile: '/account',
  twoFactor: '/account/2fa',
  tokens: '/account/tokens',
  devices: '/account/devices',
} as const

export type Profile = Me['user'] & {
  email: string | null
  twoFactorEnabled: boolean
  avatarUrl: string | null
}

/**
 * GET /api/auth/<path> through react-query, as react-admin's own queries: a 401 (the session
 * ended) signs out, anything else stays on the page as `error`.
 */
export function useAccountQuery<T>(key: string, path: string, enabled = true) {
  const logoutIfAccessDenied = useLogoutIfAccessDenied()
  const query = useQuery({
    queryKey: ['account', key],
    queryFn: async () => (await api<T>(path)).data,
    enabled,
  })
  useEffect(() => {
    if (query.error) logoutIfAccessDenied(query.error)
  }, [query.error, logoutIfAccessDenied])
  return query
}

/** GET /api/auth/profile (the profile page). */
export const useProfile = () => useAccountQuery<Profile>('profile', 'auth/profile')

/** After a change to the own account: the profile and /me (identity, twoFactorEnabled) again. */
export function useAccountChanged() {
  const queryClient = useQueryClient()
  const { refetch } = usePermissions<Me>()
  return async () => {
    await queryClient.invalidateQueries({ queryKey: ['account'] })
    await queryClient.invalidateQueries({ queryKey: ['auth'] })
    await refetch()
  }
}

/** The error code of an API failure (api.ts puts it in HttpError's body). */
export const codeOf = (error: unknown) => (error as { body?: { code?: string } } | null)?.body?.code

/** The user menu's way in (Layout.tsx); it closes the menu, which would hide the page. */
export function AccountMenuItem() {
  const userMenu = useUserMenu()
  return (
    <MenuItemLink
      to={ACCOUNT_ROUTES.profile}
      primaryText="app.account.title"
      leftIcon={<AccountCircle />}
      onClick={() => userMenu?.onClose()}
    />
  )
}

/** The title and the tabs over each account page. */
export function AccountPage({ children }: { children: ReactNode }) {
  const { pathname } = useLocation()
  const translate = useTranslate()
  return (
    <Box sx={{ mt: 2, maxWidth: 900 }}>
      <Title title={translate('app.account.title')} />
      <Tabs value={pathname} sx={{ mb: 2 }}>
        <Tab
          label={translate('app.account.tabs.profile')}
          value={ACCOUNT_ROUTES.profile}
          component={Link}
          to={ACCOUNT_ROUTES.profile}
        />
        <Tab
          label={translate('app.account.tabs.two_factor')}
          value={ACCOUNT_ROUTES.twoFactor}
          component={Link}
          to={ACCOUNT_ROUTES.twoFactor}
        />
        <Tab
          label={translate('app.account.tabs.tokens')}
          value={ACCOUNT_ROUTES.tokens}
          component={Link}
          to={ACCOUNT_ROUTES.tokens}
        />
        <Tab
          label={translate('app.devices.tab')}
          value={ACCOUNT_ROUTES.devices}
          component={Link}
          to={ACCOUNT_ROUTES.devices}
        />
      </Tabs>
      {children}
    </Box>
  )
}

/** A secret shown once (recovery codes, a new API token), with a copy button. */
export function ShownOnce({ text, testId }: { text: string; testId: string }) {
  const notify = useNotify()
  const copy = async () => {
    try {
      // navigator.clipboard exists only in secure contexts (https, localhost).
      await navigator.clipboard.writeText(text)
      notify('app.account.copied', { type: 'info' })
    } catch {
      notify('app.account.copy_failed', { type: 'warning' })
    }
  }
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
      <Typography
        component="pre"
        data-testid={testId}
        sx={{
          m: 0,
          p: 1.5,
          flex: 1,
          bgcolor: 'grey.100',
          borderRadius: 1,
          fontFamily: 'monospace',
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-all',
          userSelect: 'all',
        }}
      >
        {text}
      </Typography>
      <Button label="app.account.copy" onClick={copy}>
        <ContentCopy />
      </Button>
    </Box>
  )
}

/** The profile page's avatar (fetched with the token), shown from an object URL. */
export function useAvatarSrc(avatarUrl: string | null | undefined) {
  const [src, setSrc] = useState<string>()
  useEffect(() => {
    if (!avatarUrl) return setSrc(undefined)
    let objectUrl: string | undefined
    const controller = new AbortController()
    fetchImage(avatarUrl, controller.signal)
      .then((blob) => {
        if (!blob) return
        objectUrl = URL.createObjectURL(blob)
        setSrc(objectUrl)
      })
      .catch(() => undefined)
    return () => {
      controller.abort()
      if (objectUrl) URL.revokeObjectURL(objectUrl)
    }
  }, [avatarUrl])
  return src
}

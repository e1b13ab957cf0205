import type { ReactNode } from 'react'
import {
  AppBar,
  LocalesMenuButton,
  RefreshIconButton,
  Layout as RaLayout,
  Logout,
  Menu,
  MenuItemLink,
  UserMenu,
  useLogout,
  usePermissions,
  useTranslate,
  type TranslateFunction,
} from 'react-admin'
import { ListItemIcon, ListItemText, ListSubheader, MenuItem, type Theme } from '@mui/material'
import { Navigate, useLocation } from 'react-router-dom'
import AccountTree from '@mui/icons-material/AccountTree'
import Circle from '@mui/icons-material/CircleOutlined'
import Description from '@mui/icons-material/Description'
import Edit from '@mui/icons-material/Edit'
import Groups from '@mui/icons-material/Groups'
import History from '@mui/icons-material/History'
import Key from '@mui/icons-material/Key'
import Login from '@mui/icons-material/Login'
import MonitorHeart from '@mui/icons-material/MonitorHeart'
import People from '@mui/icons-material/People'
import Person from '@mui/icons-material/Person'
import PhonelinkErase from '@mui/icons-material/PhonelinkErase'
import Settings from '@mui/icons-material/Settings'
import VerifiedUser from '@mui/icons-material/VerifiedUser'
import type { Me, MenuNode } from './authProvider'
import { PAGES } from './pages'
import { ACCOUNT_ROUTES, AccountMenuItem } from './pages/account/common'
import { SignInNotice } from './SignInNotice'
import { NoticesBell } from './NoticesBell'

/** Icon names stored on menu nodes (RuoYi-style names from the seed) mapped to MUI icons. */
const ICONS: Record<string, ReactNode> = {
  'setting': <Settings />,
  'user': <Person />,
  'peoples': <Groups />,
  'tree-table': <AccountTree />,
  'documentation': <Description />,
  'edit': <Edit />,
  'monitor': <MonitorHeart />,
  'online': <People />,
  'logininfor': <Login />,
  'log': <History />,
  'key': <Key />,
  'eye-open': <VerifiedUser />,
}
const icon = (name: string | null) => (name && ICONS[name]) || <Circle />

const bySort = (a: MenuNode, b: MenuNode) => a.sort - b.sort || a.id - b.id

/**
 * The sidebar, built from the /me menu tree: directories become headings, pages become links to
 * the react-admin resource registered for their `component`. Hidden nodes (`visible: false`) are
 * left out of the sidebar but their pages stay reachable. The server already dropped what the
 * account does not hold.
 */
function items(nodes: MenuNode[], translate: TranslateFunction, depth = 0): ReactNode[] {
  return [...nodes]
    .filter((node) => node.visible)
    .sort(bySort)
    .flatMap((node) => {
      if (node.type === 'directory') {
        return [
          <ListSubheader
            key={`d${node.id}`}
            sx={{ lineHeight: '36px', pl: 2 + depth * 2, bgcolor: 'transparent' }}
          >
            {translate(node.name, { _: node.name })}
          </ListSubheader>,
          ...items(node.children, translate, depth + 1),
        ]
      }
      const page = node.component ? PAGES[node.component] : undefined
      if (!page) return []
      return [
        <MenuItemLink
          key={`m${node.id}`}
          to={`/${page.name}`}
          primaryText={translate(node.name, { _: node.name })}
          leftIcon={icon(node.icon)}
          sx={{ pl: 2 + depth }}
        />,
      ]
    })
}

function Sidebar() {
  const { permissions } = usePermissions<Me>()
  // Menu names are labels: the seeded ones are translated (i18n/zh.ts), renamed ones shown as is.
  const translate = useTranslate()
  return <Menu data-testid="sidebar">{items(permissions?.menus ?? [], translate)}</Menu>
}

/**
 * Logout that also revokes the device this session signed in with (POST /api/auth/logout
 * `{ forgetDevice: true }`): the browser's device token goes, its next sign-in is a new browser's.
 */
function ForgetDeviceLogout() {
  const logout = useLogout()
  const translate = useTranslate()
  return (
    <MenuItem onClick={() => logout({ forgetDevice: true }, undefined, false)}>
      <ListItemIcon>
        <PhonelinkErase fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('app.logout_forget_device')}</ListItemText>
    </MenuItem>
  )
}

const MyUserMenu = () => (
  <UserMenu>
    <AccountMenuItem />
    <MenuItemLink to="/password" primaryText="app.change_password" leftIcon={<Key />} />
    <Logout />
    <ForgetDeviceLogout />
  </UserMenu>
)

// Defined once at module level: a new component on each render would remount the app bar and
// lose the page title rendered into it.
// Its default toolbar holds the language switcher (two locales in i18n/) and the refresh button.
const MyAppBar = () => (
  <AppBar
    userMenu={<MyUserMenu />}
    toolbar={
      <>
        <NoticesBell />
        <LocalesMenuButton />
        <RefreshIconButton />
      </>
    }
  />
)

/** Where an account with a pending requirement (/me) settles it; the server refuses it the rest. */
const SETTLED_AT = {
  E_PASSWORD_CHANGE_REQUIRED: '/password',
  E_2FA_SETUP_REQUIRED: ACCOUNT_ROUTES.twoFactor,
} as const

/** A password someone else chose (or that expired), or a required second factor, comes first. */
function RequirementFirst({ children }: { children: ReactNode }) {
  const { permissions } = usePermissions<Me>()
  const { pathname } = useLocation()
  const pending = permissions?.pendingRequirement
  if (pending && pathname !== SETTLED_AT[pending]) {
    return <Navigate to={SETTLED_AT[pending]} replace />
  }
  return children
}

/**
 * On a phone the page keeps the screen's width: a table wider than the screen scrolls inside its
 * card (the row actions come first there: Grid). Wider screens unchanged.
 */
const phone = (theme: Theme) => ({
  [theme.breakpoints.down('sm')]: {
    // The layout is at least as wide as its content (react-admin's `fit-content`), and flex
    // items grow to their content's width unless allowed to shrink.
    'minWidth': 0,
    '& .RaLayout-content, & .RaLayout-content > *, & .RaList-main, & .RaList-content': {
      minWidth: 0,
    },
    '& .RaLayout-content .MuiCard-root, & .RaDatagrid-tableWrapper': { overflowX: 'auto' },
  },
})

export const Layout = ({ children }: { children: ReactNode }) => (
  <RaLayout menu={Sidebar} appBar={MyAppBar} sx={phone}>
    <SignInNotice />
    <RequirementFirst>{children}</RequirementFirst>
  </RaLayout>
)

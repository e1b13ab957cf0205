import { Route } from 'react-router-dom'
import { Admin, CustomRoutes, Resource } from 'react-admin'
import { Card, CardContent, Typography } from '@mui/material'
import { Title, useLogin, usePermissions, useTranslate } from 'react-admin'
import { QueryClient } from '@tanstack/react-query'
import { canAccess } from './access'
import { authProvider, type Me, type MenuNode } from './authProvider'
import { NoAccess } from './NoAccess'
import { dataProvider } from './dataProvider'
import { i18nProvider } from './i18n'
import { Layout } from './Layout'
import { LoginPage } from './LoginPage'
import { PAGES } from './pages'
import { PasswordPage } from './pages/password'
import { ACCOUNT_ROUTES } from './pages/account/common'
import { DevicesPage } from './pages/account/DevicesPage'
import { ProfilePage } from './pages/account/ProfilePage'
import { SecondFactorPage } from './pages/account/SecondFactorPage'
import { TokensPage } from './pages/account/TokensPage'
import { OWN_NOTICES_ROUTE, OwnNoticesPage } from './pages/ownNotices'

export { i18nProvider }

/** The page nodes of the /me tree, in tree order: each names a component this console may know. */
const pageNodes = (nodes: MenuNode[]): MenuNode[] =>
  nodes.flatMap((node) => [...(node.component ? [node] : []), ...pageNodes(node.children)])

function Dashboard() {
  const { permissions: me } = usePermissions<Me>()
  const translate = useTranslate()
  if (!me) return null
  const roles = me.roles
    .map((role) => `${role.name}${role.status === 'enabled' ? '' : ` (${role.status})`}`)
    .join(', ')
  return (
    <Card sx={{ mt: 2 }}>
      <Title title="app.title" />
      <CardContent>
        <Typography variant="h6">
          {translate('app.welcome', { name: me.user.nickname || me.user.account })}
        </Typography>
        <Typography color="text.secondary">
          {translate('app.roles', { roles: roles || translate('app.none') })}
        </Typography>
      </CardContent>
    </Card>
  )
}

/** The login page when react-admin shows it (a session ended, a signed-out tab). */
function AdminLoginPage() {
  const login = useLogin()
  return <LoginPage login={login} />
}

/**
 * react-query retries a failed query 3 times by default (1, 2, 4 s apart): fine for a network
 * error or a 5xx, wrong for an answer that will not change. A 4xx (401 and 403 from /me above
 * all) is final: no retry, so an ended session reaches the login page at once.
 */
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failures, error) => {
        const status = (error as { status?: number } | null)?.status ?? 0
        return !(status >= 400 && status < 500) && failures < 3
      },
    },
  },
})

/**
 * The resources come from /me (react-admin passes getPermissions' answer to this function): a
 * page the account does not hold is not even routed, nor a create or edit page it may not use
 * (access.ts). A page held without its list code shows why instead of a failing list.
 */
export function App() {
  return (
    <Admin
      title="Admin console"
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      queryClient={queryClient}
      dataProvider={dataProvider}
      loginPage={AdminLoginPage}
      layout={Layout}
      dashboard={Dashboard}
      requireAuth
      disableTelemetry
    >
      {(me: Me | undefined) => [
        ...pageNodes(me?.menus ?? [])
          .filter((node) => PAGES[node.component!])
          .map((node) => {
            const page = PAGES[node.component!]
            const can = (action: string) => canAccess(me, { resource: page.name, action })
            return (
              <Resource
                key={page.name}
                name={page.name}
                // Page titles use the menu's own name (what the administrators called it); a
                // label is a translation key, so the seeded names have Chinese ones (i18n/zh.ts).
                options={{ label: node.name }}
                list={can('list') ? page.list : NoAccess}
                create={can('create') ? page.create : undefined}
                edit={can('edit') ? page.edit : undefined}
              />
            )
          }),
        <CustomRoutes key="custom">
          <Route path="/password" element={<PasswordPage />} />
          <Route path={ACCOUNT_ROUTES.profile} element={<ProfilePage />} />
          <Route path={ACCOUNT_ROUTES.twoFactor} element={<SecondFactorPage />} />
          <Route path={ACCOUNT_ROUTES.tokens} element={<TokensPage />} />
          <Route path={ACCOUNT_ROUTES.devices} element={<DevicesPage />} />
          <Route path={OWN_NOTICES_ROUTE} element={<OwnNoticesPage />} />
        </CustomRoutes>,
      ]}
    </Admin>
  )
}

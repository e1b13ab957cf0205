import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { tokens } from './api'
import { authProvider, type LoginParams } from './authProvider'
import { LoginPage } from './LoginPage'
import { EnrolDevicePage, ResetPasswordPage, UndoEmailPage } from './MailPages'
import { currentLocale } from './i18n/errors'

const root = createRoot(document.getElementById('root')!)

/** react-admin and every page: a chunk of its own, loaded once there is a session to show. */
const loadAdmin = () => import('./App')
async function showAdmin() {
  const { App, i18nProvider } = await loadAdmin()
  // The console's code may have loaded before the language was switched on the login page.
  await i18nProvider.changeLocale(currentLocale())
  root.render(
    <StrictMode>
      <App />
    </StrictMode>
  )
}

/** The pages a mailed link opens (MailPages.tsx), with or without a session. */
const [route, query] = window.location.hash.slice(1).split('?')
const params = new URLSearchParams(query ?? '')
const mailToken = params.get('token') ?? ''

if (route === '/reset-password') {
  root.render(
    <StrictMode>
      <ResetPasswordPage token={mailToken} />
    </StrictMode>
  )
} else if (route === '/undo-email') {
  root.render(
    <StrictMode>
      <UndoEmailPage token={mailToken} />
    </StrictMode>
  )
} else if (route === '/enrol-device') {
  root.render(
    <StrictMode>
      <EnrolDevicePage token={mailToken} />
    </StrictMode>
  )
} else if (tokens.get()) {
  showAdmin()
} else {
  // No session: the login page alone, at once (react-admin would first settle its auth state).
  // The admin chunk is fetched while the person types; after the login, the route asked for.
  const asked = window.location.hash
  const next = asked && !asked.startsWith('#/login') ? asked : '#/'
  window.history.replaceState(null, '', '#/login')
  const login = async (params: LoginParams) => {
    const mfa = await authProvider.login(params)
    if (mfa) return mfa // the page asks for the second factor, then calls login again
    window.history.replaceState(null, '', next)
    await showAdmin()
  }
  root.render(
    <StrictMode>
      <LoginPage
        login={login}
        initialAccount={route === '/login' ? (params.get('account') ?? '') : ''}
      />
    </StrictMode>
  )
  setTimeout(() => loadAdmin().catch(() => undefined), 1500)
}

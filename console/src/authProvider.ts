import { HttpError, type AuthProvider } from 'react-admin'
import { api, fetchImage, tokens, type Schemas } from './api'
import type { operations } from './api-types'
import { canAccess } from './access'

/** GET /api/auth/me: the account, its roles, its sidebar tree and its permission codes. */
export type Me = operations['auth.me']['responses'][200]['content']['application/json']['data']
export type MenuNode = Schemas['SidebarMenu']

/**
 * react-admin asks for the permissions and the identity together: one /me request serves both.
 * Without a stored token there is nothing to ask: no request, a 401 at once.
 */
let pendingMe: Promise<Me> | null = null
/** The latest /me answer: canAccess reads it (react-admin asks once per button and row). */
let lastMe: Me | null = null
function fetchMe(): Promise<Me> {
  // Messages are translation keys: react-admin translates what it shows.
  if (!tokens.get()) return Promise.reject(new HttpError('ra.auth.auth_check_error', 401))
  pendingMe ??= api<Me>('auth/me')
    .then(({ data }) => (lastMe = data))
    .finally(() => (pendingMe = null))
  return pendingMe
}

/** Step one (account, password, captcha) or, for an account with a second factor, step two. */
export type LoginParams =
  | { account: string; password: string; captchaToken: string }
  | { account: string; password: string; passkey: PasskeyAssertion }
  | PasskeySignInParams
  | SecondStepParams
/** A sign-in with a passkey alone: no account, no password (POST /api/auth/login/passkey). */
export type PasskeySignInParams = { response: PasskeyAssertion }
/** A passkey's assertion, as @simplewebauthn/browser's startAuthentication returns it. */
export type PasskeyAssertion = Record<string, unknown>
export type SecondStepParams = {
  mfaToken: string
  code?: string
  recoveryCode?: string
  /** A passkey's assertion instead of a code (POST /api/auth/login/passkey). */
  response?: PasskeyAssertion
  rememberDevice?: boolean
}
/**
 * Step one's answer for an account with a second factor: no session yet. `redirectTo` keeps
 * react-admin's useLogin on the login page (it navigates to it) instead of the dashboard.
 */
export type MfaRequired = {
  mfaRequired: true
  mfaToken: string
  methods: ('totp' | 'passkey')[]
  expiresIn: number
  redirectTo: string
}
type SignedIn = { token: string; deviceToken?: string }

/**
 * Set by a sign-in in this page, until the last-sign-in notice (SignInNotice.tsx) is dismissed: a
 * reload of the console does not show it again. Both login pages (main.tsx's and react-admin's)
 * sign in without a reload.
 */
let signedInHere = false
export const signInNoticePending = () => signedInHere
export const dismissSignInNotice = () => {
  signedInHere = false
}

/**
 * The session lives in localStorage (the JWT and the device token), so a reload restores it:
 * react-admin calls checkAuth, then getPermissions, which reads /api/auth/me. The access comes
 * from the server on every load; nothing about permissions is stored in the browser.
 *
 * With no token, the console goes straight to the login page: checkAuth fails without a request
 * and getPermissions answers null without one (react-admin waits for the permissions before it
 * routes, so a failing /me would hold the page). A 401 or 403 from /me is not retried (App.tsx).
 */
export const authProvider: AuthProvider = {
  async login(params: LoginParams): Promise<MfaRequired | undefined> {
    const path =
      'mfaToken' in params
        ? params.response
          ? 'auth/login/passkey'
          : 'auth/login/2fa'
        : 'response' in params
          ? 'auth/login/passkey'
          : 'auth/login'
    const { data } = await api<SignedIn | Omit<MfaRequired, 'redirectTo'>>(path, {
      method: 'POST',
      body: { ...params, deviceToken: tokens.device() },
    })
    // The password was right; the second step (TwoFactorStep.tsx) follows.
    if ('mfaRequired' in data) return { ...data, redirectTo: '/login' }
    tokens.set(data.token)
    // A new device token at every sign-in (the one sent is superseded): keep the latest.
    if (data.deviceToken) tokens.setDevice(data.deviceToken)
    signedInHere = true
  },

  /**
   * Signing out (or a session that ended) reloads the console on the login page: nothing cached
   * for the previous account survives, and main.tsx shows the light login page. It also spares
   * react-admin a redirect loop: after its logout it clears the query cache while the admin routes
   * are still mounted, they ask for the permissions again, get none and log out again.
   *
   * `{ forgetDevice: true }` (the user menu's "Sign out and forget this device") also revokes the
   * device this session signed in with, and the stored device token goes whatever the answer.
   */
  async logout(params?: { forgetDevice?: boolean } | null) {
    const forget = params?.forgetDevice === true
    if (tokens.get()) {
      await api('auth/logout', {
        method: 'POST',
        body: forget ? { forgetDevice: true } : undefined,
      }).catch(() => undefined)
    }
    tokens.clear()
    if (forget) tokens.forgetDevice()
    window.history.replaceState(null, '', '#/login')
    window.location.reload()
    return new Promise<never>(() => undefined) // the page is going away
  },

  async checkAuth() {
    if (!tokens.get()) throw new Error('ra.auth.auth_check_error')
  },

  /** 401: the token is gone (expired, revoked, password reset): back to the login page. */
  async checkError(error) {
    if (error?.status === 401) {
      tokens.clear()
      throw new Error('ra.notification.logged_out')
    }
    // 403 and the rest: stay signed in; the page shows the error message.
  },

  async getPermissions() {
    // Null, not an error: react-admin would retry an error and log out after it; useLogin
    // refetches the permissions once a token is stored.
    if (!tokens.get()) return null
    return fetchMe()
  },

  /** The access table (access.ts) over the /me codes, and the server's refusals per record. */
  async canAccess(params) {
    if (!tokens.get()) return false
    return canAccess(lastMe ?? (await fetchMe()), params)
  },

  async getIdentity() {
    const { user } = await fetchMe()
    // The app bar's avatar as a data URL: cached with the identity, nothing to revoke. Without
    // it (none, or it failed to load) the user menu shows its icon.
    const image = user.avatarUrl
      ? await fetchImage(user.avatarUrl).catch(() => undefined)
      : undefined
    return {
      id: user.id,
      fullName: user.nickname || user.account,
      avatar: image && (await dataUrlOf(image)),
    }
  },
}

const dataUrlOf = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(reader.result as string)
    reader.onerror = () => reject(reader.error)
    reader.readAsDataURL(blob)
  })

import { api, type Schemas } from './api'
import type { PasskeyAssertion } from './authProvider'

/** WebAuthn needs a secure context (https, or localhost): elsewhere no passkey is offered. */
export const passkeysUsable = () => typeof window.PublicKeyCredential === 'function'

/**
 * POST /api/auth/login/passkey/options (for the second step's mfaToken, for a locked account
 * with a captcha credential, or with nothing: a sign-in with a passkey alone, the browser offering
 * the site's discoverable passkeys), then the browser asks its authenticator: the assertion.
 * @simplewebauthn/browser loads only here, when someone uses a passkey.
 */
export async function passkeyAssertion(
  body: { mfaToken: string } | { account: string; captchaToken: string } | Record<string, never>
): Promise<PasskeyAssertion> {
  const { data } = await api<Schemas['PasskeyAuthenticationOptions']>(
    'auth/login/passkey/options',
    { method: 'POST', body }
  )
  const { startAuthentication } = await import('@simplewebauthn/browser')
  return (await startAuthentication({ optionsJSON: data as any })) as unknown as PasskeyAssertion
}

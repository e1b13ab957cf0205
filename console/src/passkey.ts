import { api, type Schemas } from './api'
import type { PasskeyAssertion } from './authProvider'

/** WebAuthn needs a secure context (https, or localhost): elsewhere no passkey is offered. */
export const passkeysUsable = () => typeof window.PublicKeyCredential === 'function'

/**
 * POST /api/auth/login/passkey/options (for the second step's mfaToken, for a locked account
 * with a captcha credential, or with nothing: a sign-in with a passkey alone, the browser offering
 * the site's discoverable passkeys), then the browser asks its authenticator: the assertion.
 * `autofill`: a conditional request (WebAuthn conditional mediation), offered in the autofill of
 * the input marked `autocomplete="... webauthn"`; it waits for the person's pick. Starting any
 * other ceremony aborts a pending one (@simplewebauthn's WebAuthnAbortService, an
 * AbortController), and so does cancelPasskeyAutofill.
 * @simplewebauthn/browser loads only here, when someone uses a passkey.
 */
export async function passkeyAssertion(
  body: { mfaToken: string } | { account: string; captchaToken: string } | Record<string, never>,
  autofill = false
): Promise<PasskeyAssertion> {
  const { data } = await api<Schemas['PasskeyAuthenticationOptions']>(
    'auth/login/passkey/options',
    { method: 'POST', body }
  )
  const { startAuthentication } = await import('@simplewebauthn/browser')
  // Any ceremony started here ends the pending one: only an autofill one is left to cancel.
  autofillPending = autofill
  try {
    return (await startAuthentication({
      optionsJSON: data as any,
      useBrowserAutofill: autofill,
    })) as unknown as PasskeyAssertion
  } finally {
    if (autofill) autofillPending = false
  }
}

let autofillPending = false

/** Whether the browser can offer passkeys in an input's autofill (conditional mediation). */
export async function passkeyAutofillAvailable(): Promise<boolean> {
  if (!passkeysUsable()) return false
  return (await window.PublicKeyCredential.isConditionalMediationAvailable?.()) === true
}

/** Ends a pending autofill request (the person signs in another way, or leaves the page). */
export async function cancelPasskeyAutofill() {
  if (!autofillPending) return
  autofillPending = false
  const { WebAuthnAbortService } = await import('@simplewebauthn/browser')
  WebAuthnAbortService.cancelCeremony()
}

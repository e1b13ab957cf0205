import { useCallback, useEffect, useState } from 'react'
import type { FormEvent } from 'react'
import { Alert, Box, Button, Card, CardContent, TextField, Typography } from '@mui/material'
import { SliderCaptcha } from './captcha/SliderCaptcha'
import type { LoginParams, MfaRequired } from './authProvider'
import { TwoFactorStep } from './TwoFactorStep'
import { LOCALES, currentLocale, storeLocale } from './i18n/errors'
import { LOGIN_TEXT, LoginTextContext } from './i18n/login'
import { MailRequestCard, useMailOn, useSettled } from './MailPages'
import {
  cancelPasskeyAutofill,
  passkeyAssertion,
  passkeyAutofillAvailable,
  passkeysUsable,
} from './passkey'

/**
 * Account, password and the slider captcha. The form is usable at once; the captcha's proof of
 * work starts when the account has stood still for 300 ms (it is priced for that account), so it
 * runs while the person types the password. A right drag earns a one-time credential; the login
 * spends it whatever the outcome, so a failed login brings a fresh captcha.
 *
 * No react-admin in here: main.tsx shows this page on its own when there is no token (the admin
 * bundle loads behind it), App.tsx inside react-admin when a session ends. `login` signs in.
 */
export function LoginPage({
  login,
  initialAccount = '',
}: {
  login: (params: LoginParams) => Promise<unknown>
  initialAccount?: string
}) {
  const [account, setAccount] = useState(initialAccount)
  const captchaAccount = useSettled(account.trim(), 300)
  const [password, setPassword] = useState('')
  const [captchaToken, setCaptchaToken] = useState<string | null>(null)
  const [captchaKey, setCaptchaKey] = useState(0)
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const onToken = useCallback((token: string | null) => setCaptchaToken(token), [])
  // Set when the password was right and the account has a second factor.
  const [mfa, setMfa] = useState<MfaRequired | null>(null)
  // The console's language, switchable here; kept for the console and its error messages.
  const [locale, setLocale] = useState(currentLocale)
  const text = LOGIN_TEXT[locale]
  // Mail (when the server sends it): "Forgot password?", and a device link once login says the
  // account is locked for new browsers (MailPages.tsx).
  const mailOn = useMailOn()
  const [locked, setLocked] = useState(false)
  const [mailRequest, setMailRequest] = useState<'forgot' | 'device' | null>(null)

  /**
   * `withPasskey`: a locked account's way in (docs/front-door.md, "Passkeys"). The captcha
   * credential buys passkey options for the account; the assertion then travels with the password.
   */
  const submit = async (event: FormEvent | null, withPasskey = false) => {
    event?.preventDefault()
    if (!captchaToken) return
    void cancelPasskeyAutofill()
    setBusy(true)
    setError('')
    try {
      const proof = withPasskey
        ? { passkey: await passkeyAssertion({ account, captchaToken }) }
        : { captchaToken }
      const answer = (await login({ account, password, ...proof })) as MfaRequired | undefined
      if (answer?.mfaRequired) {
        setMfa(answer)
        setPassword('')
      }
    } catch (failure) {
      setError((failure as Error).message)
      const code = (failure as { body?: { code?: string } }).body?.code
      // A refused passkey leaves the account as locked as it was: its offer stays.
      if (!withPasskey || code === 'E_ACCOUNT_LOCKED') setLocked(code === 'E_ACCOUNT_LOCKED')
      setCaptchaKey((key) => key + 1)
    } finally {
      setBusy(false)
    }
  }

  /**
   * A passkey alone (no account, password or captcha): the browser offers the site's passkeys.
   * `autofill`: the conditional request started with the page, offered in the account field's
   * autofill; it waits for the person, so the form stays usable meanwhile, and it ends silently
   * when aborted (another way in was taken) or refused by the browser.
   */
  const signInWithPasskey = async (autofill = false) => {
    if (!autofill) {
      setBusy(true)
      setError('')
    }
    let response
    try {
      response = await passkeyAssertion({}, autofill)
    } catch (failure) {
      if (!autofill) {
        setError((failure as Error).message)
        setBusy(false)
      }
      return
    }
    setBusy(true)
    setError('')
    try {
      await login({ response })
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setBusy(false)
    }
  }

  // One conditional request per page (its options are rate-limited per address): started after
  // the first paint (a StrictMode remount clears the timer first), ended when the page goes.
  useEffect(() => {
    const start = setTimeout(async () => {
      if (await passkeyAutofillAvailable()) void signInWithPasskey(true)
    })
    return () => {
      clearTimeout(start)
      void cancelPasskeyAutofill()
    }
  }, [])

  const restart = (message?: string) => {
    setMfa(null)
    setError(message ?? '')
    setCaptchaKey((key) => key + 1)
  }

  return (
    <LoginTextContext.Provider value={text}>
      <Box
        sx={{
          minHeight: '100vh',
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          justifyContent: 'center',
          gap: 1,
          bgcolor: 'grey.100',
        }}
      >
        {mfa && (
          <TwoFactorStep
            mfaToken={mfa.mfaToken}
            methods={mfa.methods}
            login={login}
            onRestart={restart}
          />
        )}
        {mailRequest && (
          <MailRequestCard
            kind={mailRequest}
            initialAccount={account.trim()}
            onBack={() => {
              setMailRequest(null)
              setCaptchaKey((key) => key + 1)
            }}
          />
        )}
        {!mailRequest && (
          <Card
            component="form"
            onSubmit={submit}
            sx={{ width: 380, display: mfa ? 'none' : undefined }}
          >
            <CardContent
              sx={{ display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'center' }}
            >
              <Typography variant="h5">{text.signIn}</Typography>
              <TextField
                label={text.account}
                name="account"
                autoComplete="username webauthn"
                fullWidth
                required
                value={account}
                onChange={(e) => setAccount(e.target.value)}
              />
              <TextField
                label={text.password}
                name="password"
                type="password"
                autoComplete="current-password"
                fullWidth
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
              <SliderCaptcha key={captchaKey} account={captchaAccount} onToken={onToken} />
              {error && (
                <Alert severity="error" sx={{ width: '100%' }}>
                  {error}
                </Alert>
              )}
              {locked && passkeysUsable() && (
                <Button
                  variant="outlined"
                  fullWidth
                  disabled={!captchaToken || !password || busy}
                  onClick={() => submit(null, true)}
                >
                  {text.passkeyOffer}
                </Button>
              )}
              {mailOn && locked && (
                <Button variant="outlined" fullWidth onClick={() => setMailRequest('device')}>
                  {text.mail.deviceOffer}
                </Button>
              )}
              <Button type="submit" variant="contained" fullWidth disabled={!captchaToken || busy}>
                {text.signIn}
              </Button>
              {passkeysUsable() && (
                <Button
                  variant="outlined"
                  fullWidth
                  disabled={busy}
                  onClick={() => signInWithPasskey()}
                >
                  {text.passkeyAlone}
                </Button>
              )}
              {mailOn && (
                <Button size="small" onClick={() => setMailRequest('forgot')}>
                  {text.mail.forgot}
                </Button>
              )}
            </CardContent>
          </Card>
        )}
        <Box>
          {LOCALES.map((choice) => (
            <Button
              key={choice.locale}
              size="small"
              color={choice.locale === locale ? 'primary' : 'inherit'}
              sx={{ textTransform: 'none', fontWeight: choice.locale === locale ? 600 : 400 }}
              aria-pressed={choice.locale === locale}
              onClick={() => {
                storeLocale(choice.locale)
                setLocale(choice.locale)
              }}
            >
              {choice.name}
            </Button>
          ))}
        </Box>
      </Box>
    </LoginTextContext.Provider>
  )
}

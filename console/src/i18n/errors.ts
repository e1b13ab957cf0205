import type { components } from '../api-types'

/**
 * The console's language (kept in localStorage, English by default) and the API's error codes in
 * it. No react-admin in here: api.ts and the light login page (main.tsx) use it before the admin
 * bundle loads. Typed against the OpenAPI document's code list, so a new E_* code fails the
 * console's typecheck until it is translated.
 */
export type ErrorCode = components['schemas']['ErrorEntry']['code']
export const LOCALES = [
  { locale: 'en', name: 'English' },
  { locale: 'zh', name: '简体中文' },
] as const
export type Locale = (typeof LOCALES)[number]['locale']

const KEY = 'rbac.locale'
export const currentLocale = (): Locale => (localStorage.getItem(KEY) === 'zh' ? 'zh' : 'en')
export const storeLocale = (locale: string) => localStorage.setItem(KEY, locale)

export const ERRORS: Record<Locale, Record<ErrorCode, string>> = {
  en: {
    E_BAD_REQUEST: 'The request was malformed.',
    E_CAPTCHA_FAILED: 'The captcha answer was not right: try again.',
    E_CAPTCHA_TOKEN_INVALID: 'The captcha has expired or was already used: solve it again.',
    E_MFA_TOKEN_INVALID: 'The sign-in step has expired: sign in again.',
    E_PASSKEY_INVALID: 'The passkey was not accepted: try again.',
    E_PASSKEY_REQUIRED: 'This account signs in with its passkey only: use "Sign in with a passkey".',
    E_EMAIL_TOKEN_INVALID: 'This link has expired or was already used: ask for a new one.',
    E_EMAIL_CODE_INVALID: 'The code is wrong or has expired: check it, or ask for a new one.',
    E_UNAUTHORIZED: 'Your session has ended, please sign in again.',
    E_INVALID_CREDENTIALS: 'Invalid account or password.',
    E_DEVICE_TOKEN_REUSED:
      "This browser's sign-in key was also used elsewhere, so every device was signed out: sign in again.",
    E_FORBIDDEN: 'You do not have permission to do this.',
    E_PASSWORD_CHANGE_REQUIRED: 'Change your password before you go on.',
    E_2FA_SETUP_REQUIRED: 'Set up a second factor before you go on.',
    E_NOT_FOUND: 'Not found: it may have been deleted.',
    E_METHOD_NOT_ALLOWED: 'This action is not available.',
    E_CONFLICT: 'A conflicting change: reload and try again.',
    E_PAYLOAD_TOO_LARGE: 'Too much data in one request.',
    E_UNSUPPORTED_MEDIA_TYPE: 'The request was not JSON.',
    E_HEADERS_TOO_LARGE: 'The request headers are too large.',
    E_VALIDATION_ERROR: 'Some fields are not valid.',
    E_EXPORT_TOO_LARGE: 'Too many rows to export: narrow the filters and try again.',
    E_TOO_MANY_REQUESTS: 'Too many attempts: please wait a moment and try again.',
    E_ACCOUNT_LOCKED:
      'Too many failed sign-ins for this account: it is locked for new browsers. Sign in from a device you used before, or ask an administrator to unlock it.',
    E_INTERNAL: 'Something went wrong on the server.',
    E_UNAVAILABLE: 'The service is busy or unavailable: try again shortly.',
  },
  zh: {
    E_BAD_REQUEST: '请求格式错误。',
    E_CAPTCHA_FAILED: '验证码不正确，请重试。',
    E_CAPTCHA_TOKEN_INVALID: '验证码已过期或已使用，请重新验证。',
    E_MFA_TOKEN_INVALID: '登录步骤已过期，请重新登录。',
    E_PASSKEY_INVALID: '通行密钥未被接受：请重试。',
    E_PASSKEY_REQUIRED: '此账号只能使用通行密钥登录：请选择“使用通行密钥登录”。',
    E_EMAIL_TOKEN_INVALID: '此链接已过期或已被使用，请重新获取。',
    E_EMAIL_CODE_INVALID: '验证码错误或已过期，请检查或重新获取。',
    E_UNAUTHORIZED: '会话已结束，请重新登录。',
    E_INVALID_CREDENTIALS: '账号或密码错误。',
    E_DEVICE_TOKEN_REUSED: '此浏览器的登录密钥已在别处被使用，所有设备均已退出登录：请重新登录。',
    E_FORBIDDEN: '您没有执行此操作的权限。',
    E_PASSWORD_CHANGE_REQUIRED: '请先修改密码。',
    E_2FA_SETUP_REQUIRED: '请先设置双重验证。',
    E_NOT_FOUND: '未找到：可能已被删除。',
    E_METHOD_NOT_ALLOWED: '不支持此操作。',
    E_CONFLICT: '数据冲突：请刷新后重试。',
    E_PAYLOAD_TOO_LARGE: '请求数据过大。',
    E_UNSUPPORTED_MEDIA_TYPE: '请求不是 JSON 格式。',
    E_HEADERS_TOO_LARGE: '请求头过大。',
    E_VALIDATION_ERROR: '部分字段无效。',
    E_EXPORT_TOO_LARGE: '导出的行数过多：请缩小筛选范围后重试。',
    E_TOO_MANY_REQUESTS: '尝试次数过多，请稍后再试。',
    E_ACCOUNT_LOCKED:
      '该账号登录失败次数过多，已对新浏览器锁定。请在以前使用过的设备上登录，或请管理员解锁。',
    E_INTERNAL: '服务器出错了。',
    E_UNAVAILABLE: '服务繁忙或不可用，请稍后再试。',
  },
}

/** An answer without a known code (a proxy's 502 page, say). */
export const REQUEST_FAILED: Record<Locale, string> = {
  en: 'Request failed (%{status})',
  zh: '请求失败（%{status}）',
}

/**
 * The message shown for an API error: the server's own, once. api.ts asks for it in the
 * console's language (Accept-Language), and it names the rule or the value that refused. The
 * code's text here is only the fallback for an answer without a message (a proxy's page, say).
 */
export function errorMessage(code: string | undefined, status: number, server?: string) {
  if (server) return server
  const text = code ? (ERRORS[currentLocale()] as Record<string, string>)[code] : undefined
  return text ?? REQUEST_FAILED[currentLocale()].replace('%{status}', String(status))
}

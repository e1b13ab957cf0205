import { HttpError } from 'react-admin'
import type { components } from './api-types'
import { currentLocale, errorMessage } from './i18n/errors'

/** The API's shapes, generated from its OpenAPI document (`npm run api-types`, api-types.ts). */
export type Schemas = components['schemas']

/**
 * The one place that talks HTTP to the API. It adds the bearer token, unwraps the envelope
 * (`{ data }`, `{ data, meta }`) and turns the error contract (`{ errors: [{ code, message,
 * field? }] }`) into react-admin's HttpError: status 401 makes the authProvider log out, 403 is
 * shown as a message, 422 fills the form fields (`body.errors` keyed by field).
 */
const TOKEN = 'rbac.token'
const DEVICE = 'rbac.deviceToken'

export const tokens = {
  get: () => localStorage.getItem(TOKEN),
  set: (token: string) => localStorage.setItem(TOKEN, token),
  clear: () => localStorage.removeItem(TOKEN),
  /**
   * Issued at a successful login and sent with the next ones (kept across logouts). It rotates:
   * every sign-in answers a new one, which replaces the stored one.
   */
  device: () => localStorage.getItem(DEVICE) ?? undefined,
  setDevice: (token: string) => localStorage.setItem(DEVICE, token),
  /** This browser is a new one from now on (its device revoked, forgotten or its token reused). */
  forgetDevice: () => localStorage.removeItem(DEVICE),
}

export type ApiError = Schemas['ErrorEntry']

export type Envelope<T> = { data: T; meta?: Schemas['PageMeta'] }

/** `/api/<path>?<query>`: empty values are left out. */
export function apiUrl(path: string, query: Record<string, unknown> = {}) {
  const url = new URL(`/api/${path}`, window.location.origin)
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '')
      url.searchParams.set(key, String(value))
  }
  return url
}

/** The bearer header of the stored session (none without one). */
export function authHeaders(): Record<string, string> {
  const token = tokens.get()
  return token ? { Authorization: `Bearer ${token}` } : {}
}

/**
 * An image served to signed-in administrators only (avatars): an <img> cannot send the bearer
 * token, so the bytes are fetched with it. Undefined when there is none to show.
 */
export async function fetchImage(url: string, signal?: AbortSignal): Promise<Blob | undefined> {
  const response = await fetch(url, { headers: authHeaders(), signal })
  return response.ok ? response.blob() : undefined
}

/** The error contract as react-admin's HttpError, its message in the console's language. */
export async function apiError(response: Response): Promise<HttpError> {
  const body = await response.json().catch(() => ({}))
  const errors: ApiError[] = Array.isArray(body.errors) ? body.errors : []
  const first = errors[0]
  const message = errorMessage(first?.code, response.status, first?.message)
  // react-admin shows `body.errors[field]` under the matching form input.
  const fieldErrors: Record<string, string> = {}
  for (const error of errors) if (error.field) fieldErrors[error.field] = error.message
  return new HttpError(message, response.status, {
    errors: fieldErrors,
    code: first?.code,
    rule: first?.rule,
  })
}

export async function api<T = any>(
  path: string,
  options: {
    method?: string
    body?: unknown
    query?: Record<string, unknown>
    headers?: Record<string, string>
    signal?: AbortSignal
  } = {}
): Promise<Envelope<T>> {
  const url = apiUrl(path, options.query)
  const headers: Record<string, string> = {
    'Accept': 'application/json',
    // The server's messages (a field's validation message) in the console's language.
    'Accept-Language': currentLocale() === 'zh' ? 'zh-CN' : 'en',
    ...authHeaders(),
    ...options.headers,
  }
  // A FormData body (an upload) goes as multipart: the browser writes its Content-Type.
  const form = options.body instanceof FormData
  if (options.body !== undefined && !form) headers['Content-Type'] = 'application/json'

  const response = await fetch(url, {
    method: options.method ?? 'GET',
    headers,
    body: form
      ? (options.body as FormData)
      : options.body === undefined
        ? undefined
        : JSON.stringify(options.body),
    signal: options.signal,
  })
  if (response.status === 204) return { data: undefined as T }
  if (response.ok) return response.json()
  const error = await apiError(response)
  // The stored device token was superseded and presented again (a copy is in other hands): the
  // server revoked every device of the account, so the next attempt goes without it.
  if (error.body?.code === 'E_DEVICE_TOKEN_REUSED') tokens.forgetDevice()
  throw error
}

import { HttpError } from 'react-admin'

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
  /** Issued at a successful login and sent with the next ones (kept across logouts). */
  device: () => localStorage.getItem(DEVICE) ?? undefined,
  setDevice: (token: string) => localStorage.setItem(DEVICE, token),
}

export type ApiError = { code: string; message: string; field?: string; rule?: string }

export type Envelope<T> = {
  data: T
  meta?: { total: number; pageNum: number; pageSize: number; lastPage: number }
}

const MESSAGES: Record<number, string> = {
  403: 'You do not have permission to do this.',
  429: 'Too many attempts: please wait a moment and try again.',
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
  const url = new URL(`/api/${path}`, window.location.origin)
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== null && value !== '')
      url.searchParams.set(key, String(value))
  }
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers }
  const token = tokens.get()
  if (token) headers.Authorization = `Bearer ${token}`
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
  const body = await response.json().catch(() => ({}))
  if (response.ok) return body

  const errors: ApiError[] = Array.isArray(body.errors) ? body.errors : []
  const first = errors[0]
  const message = MESSAGES[response.status]
    ? `${MESSAGES[response.status]}${first ? ` (${first.message})` : ''}`
    : (first?.message ?? `Request failed (${response.status})`)
  // react-admin shows `body.errors[field]` under the matching form input.
  const fieldErrors: Record<string, string> = {}
  for (const error of errors) if (error.field) fieldErrors[error.field] = error.message
  throw new HttpError(message, response.status, {
    errors: fieldErrors,
    code: first?.code,
    rule: first?.rule,
  })
}

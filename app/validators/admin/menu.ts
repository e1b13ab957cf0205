import vine from '@vinejs/vine'
import { MENU_TYPES } from '#models/menu'
import {
  formatRule,
  idField,
  isHttpsUrl,
  listValidator,
  nullableText,
  optionalText,
  plainText,
  sortOrder,
  statusField,
  UNSAFE_URL_CHARACTERS,
} from '#validators/admin/common'
import { menuSort } from '#resources/menus'
import { line } from '#validators/text'

/**
 * Request shapes of /api/admin/menus. These check each field alone; the rules that depend on the
 * node type and on the tree (a button needs a permission code and a page as parent, a parent
 * cannot be a descendant, ...) are decided by the menu service on the merged record.
 */
export const PERMISSION_CODE_FORMAT = /^[a-z][a-z0-9-]*(?::[a-z][a-z0-9-]*){1,4}$/

/** One segment of a route: `users`, `v1.2`, `my_page`, or a `:param`; never `.` or `..`. */
const ROUTE_SEGMENT = /^(?::[A-Za-z_][A-Za-z0-9_]*|[A-Za-z0-9_.-]+)$/

/**
 * A relative route (`/system/users`, `system/users`, `/users/:id`, `/`): segments of letters,
 * digits, `-`, `_`, `.` or a `:param`, separated by single slashes (so no `//host`), no `.`/`..`
 * segment. A `:` only opens a param, so `javascript:...` is not a segment.
 */
export function isRelativeRoute(value: string): boolean {
  if (value === '/') return true
  const segments = (value.startsWith('/') ? value.slice(1) : value).split('/')
  return segments.every((segment) => ROUTE_SEGMENT.test(segment) && !/^\.+$/.test(segment))
}

/** Menu `path`: a relative route, or an external link written as an `https://` URL. */
export const isMenuPath = (value: string) =>
  /^https:/i.test(value) ? isHttpsUrl(value) : isRelativeRoute(value)

/**
 * Menu `component`: a view path relative to the views folder (`system/user/index`, `Layout`,
 * `reports/sales/index.vue`): names of letters, digits, `-`, `_` joined by single `/` or `.`, so
 * no leading `/`, no `..`, no scheme, no backslash.
 */
export const COMPONENT_FORMAT = /^[A-Za-z0-9_-]+(?:[./][A-Za-z0-9_-]+)*$/

/** Menu `icon`: an icon name such as `user`, `mdi:account`, `lucide-settings`. */
export const ICON_FORMAT = /^[A-Za-z][A-Za-z0-9_:-]{0,63}$/

const menuPath = formatRule(
  'menuPath',
  (value) => !UNSAFE_URL_CHARACTERS.test(value) && isMenuPath(value),
  'The {{ field }} field must be a relative route (like /system/users or /users/:id) or an https:// URL'
)
const component = formatRule(
  'component',
  (value) => COMPONENT_FORMAT.test(value),
  'The {{ field }} field must be a view path like system/user/index (letters, digits, -, _ joined by / or .)'
)
const icon = formatRule(
  'icon',
  (value) => ICON_FORMAT.test(value),
  'The {{ field }} field must be an icon name like user or mdi:account (a letter, then up to 63 letters, digits, _, : or -)'
)
const name = () => line(64).minLength(1).use(plainText())

const fields = {
  parentId: idField().nullable().optional(),
  path: nullableText(200, menuPath()),
  component: nullableText(200, component()),
  icon: nullableText(100, icon()),
  permission: line(100).regex(PERMISSION_CODE_FORMAT).nullable().optional(),
  sort: sortOrder().optional(),
  visible: vine.boolean().optional(),
  status: statusField().optional(),
}

export const listMenusValidator = listValidator(menuSort, {
  keyword: optionalText(64),
  type: vine.enum(MENU_TYPES).optional(),
  status: statusField().optional(),
  parentId: idField().optional(),
})

export const createMenuValidator = vine.create({
  ...fields,
  type: vine.enum(MENU_TYPES),
  name: name(),
})

export const updateMenuValidator = vine.create({
  ...fields,
  type: vine.enum(MENU_TYPES).optional(),
  name: name().optional(),
})

import vine from '@vinejs/vine'
import { MENU_TYPES } from '#models/menu'
import {
  idField,
  nullableText,
  optionalText,
  pageFields,
  statusField,
} from '#validators/admin/common'

/**
 * Request shapes of /api/admin/menus. These check each field alone; the rules that depend on the
 * node type and on the tree (a button needs a permission code and a page as parent, a parent
 * cannot be a descendant, ...) are decided by the menu service on the merged record.
 */
export const PERMISSION_CODE_FORMAT = /^[a-z][a-z0-9-]*(?::[a-z][a-z0-9-]*){1,4}$/

const fields = {
  parentId: idField().nullable().optional(),
  path: nullableText(200),
  component: nullableText(200),
  icon: nullableText(100),
  permission: vine
    .string()
    .trim()
    .maxLength(100)
    .regex(PERMISSION_CODE_FORMAT)
    .nullable()
    .optional(),
  sort: vine.number().withoutDecimals().min(0).max(1_000_000).optional(),
  visible: vine.boolean().optional(),
  status: statusField().optional(),
}

export const listMenusValidator = vine.create({
  ...pageFields,
  keyword: optionalText(64),
  type: vine.enum(MENU_TYPES).optional(),
  status: statusField().optional(),
  parentId: idField().optional(),
})

export const createMenuValidator = vine.create({
  ...fields,
  type: vine.enum(MENU_TYPES),
  name: vine.string().trim().minLength(1).maxLength(64),
})

export const updateMenuValidator = vine.create({
  ...fields,
  type: vine.enum(MENU_TYPES).optional(),
  name: vine.string().trim().minLength(1).maxLength(64).optional(),
})

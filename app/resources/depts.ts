import type Dept from '#models/dept'
import { enabledStatus, s, shape, sortable } from '#openapi/schema'
import { idField, plainText, sortOrder, statusField } from '#validators/admin/common'
import { line } from '#validators/text'
import { writable } from '#validators/writable'

/** A department node of the tree, as built by the department service. */
export type DeptNode = { dept: Dept; children: DeptNode[] }

export const dept = shape({
  id: s.integer(),
  parentId: s.nullable(s.integer()),
  name: s.string(),
  sort: s.integer(),
  status: enabledStatus(),
  createdAt: s.dateTime(),
  updatedAt: s.dateTime(),
})
/** What `sort` accepts on the department list. */
export const deptSort = sortable(dept, ['id', 'name', 'sort', 'status', 'createdAt', 'updatedAt'])

/**
 * What a request writes (app/validators/writable.ts: the validators of
 * app/validators/admin/dept.ts and a new department's defaults derive from it). The tree rules
 * (no cycle, the parent exists, who may move what) are the department service's and DeptPolicy's.
 */
export const deptWrites = writable({
  /** None: a root. */
  parentId: { rule: () => idField().nullable().optional(), default: null },
  name: { rule: () => line(64).minLength(1).use(plainText()) },
  sort: { rule: () => sortOrder().optional(), default: 0 },
  status: { rule: () => statusField().optional(), default: 'enabled' },
})

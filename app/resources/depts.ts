import type Dept from '#models/dept'
import { enabledStatus, s, shape, sortable } from '#openapi/schema'

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

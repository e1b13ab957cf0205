import { BaseTransformer } from '@adonisjs/core/transformers'
import type Dept from '#models/dept'
import { enabledStatus, named, s, shape, sortable } from '#openapi/schema'

/** A department node of the tree, as built by the department service. */
export type DeptNode = { dept: Dept; children: DeptNode[] }

const dept = shape({
  id: s.integer(),
  parentId: s.nullable(s.integer()),
  name: s.string(),
  sort: s.integer(),
  status: enabledStatus(),
  createdAt: s.dateTime(),
  updatedAt: s.dateTime(),
})
/** Response contract (OpenAPI): a department, flat or in the tree. */
export const deptSchema = named('Dept', dept.schema)
/** What `sort` accepts on the department list. */
export const deptSort = sortable(dept, ['id', 'name', 'sort', 'status', 'createdAt', 'updatedAt'])
export const deptTreeSchema = named(
  'DeptTree',
  s.object({ ...dept.properties, children: s.array(s.ref('DeptTree')) })
)

export default class DeptTransformer extends BaseTransformer<Dept> {
  toObject() {
    return this.pick(this.resource, dept.keys)
  }
}

type TreeObject = Pick<Dept, (typeof dept.keys)[number]> & { children: TreeObject[] }

export class DeptTreeTransformer extends BaseTransformer<DeptNode> {
  toObject(): TreeObject {
    return {
      ...this.pick(this.resource.dept, dept.keys),
      children: this.resource.children.map((child) => new DeptTreeTransformer(child).toObject()),
    }
  }
}

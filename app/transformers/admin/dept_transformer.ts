import { BaseTransformer } from '@adonisjs/core/transformers'
import type Dept from '#models/dept'
import { named, s } from '#openapi/schema'
import { type DeptNode, dept } from '#resources/depts'

/** Response contract (OpenAPI): a department, flat or in the tree. */
export const deptSchema = named('Dept', dept.schema)
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

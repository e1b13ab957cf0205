import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { ModelQueryBuilderContract } from '@adonisjs/lucid/types/model'
import type { Infer } from '@vinejs/vine/types'
import Dept from '#models/dept'
import { FieldError, conflict, notFound } from '#exceptions/api_exception'
import { type Actor, BY_SORT, forest, listPage } from '#services/admin/common'
import { auditCreated, deleteAudited, saveAudited } from '#services/admin/writes'
import { definedOnly } from '#core/defined_only'
import type { Viewer } from '#services/admin/data_scope'
import DeptPolicy from '#policies/dept_policy'
import { subtreeOf } from '#policies/grant_rule'
import { deptParents } from '#policies/holdings'
import { type DeptNode, deptSort, deptWrites } from '#resources/depts'
import type {
  createDeptValidator,
  listDeptsValidator,
  updateDeptValidator,
} from '#validators/admin/dept'

/**
 * The department tree. A caller without the `all` scope sees, edits and moves only the
 * departments its scope shows (DeptPolicy): the departments themselves are scoped like the
 * records in them. Every write runs in a transaction that holds the tree still while it is
 * checked: a move is refused when it would make a cycle.
 */
export default class DeptService {
  /** A page of the departments the viewer sees, by (sort, id) unless `sort` says otherwise. */
  list(filters: Infer<typeof listDeptsValidator>, viewer: Viewer) {
    return listPage(this.seenBy(viewer, Dept.query()), filters, {
      keyword: ['name'],
      exact: ['status', 'parentId'],
      sortable: deptSort,
      order: BY_SORT,
    })
  }

  /**
   * The tree of the departments the viewer sees: a seen department whose parent is not seen is a
   * root of the answer.
   */
  async tree(viewer: Viewer): Promise<DeptNode[]> {
    const depts = await this.seenBy(viewer, Dept.query()).orderBy('sort').orderBy('id')
    return forest(depts, (dept, children: DeptNode[]) => ({ dept, children }))
  }

  async show(id: number, viewer: Viewer, client?: QueryClientContract) {
    const dept = await this.seenBy(viewer, Dept.query(client ? { client } : undefined))
      .where('id', id)
      .first()
    if (!dept) throw notFound()
    return dept
  }

  async create(actor: Actor, data: Infer<typeof createDeptValidator>) {
    const fields = deptWrites.withDefaults(data)
    const parentId = fields.parentId ?? null
    return db.transaction(async (trx) => {
      await lockTree(trx)
      if (parentId !== null && !(await Dept.find(parentId, { client: trx }))) {
        throw new FieldError('parentId', 'parentDeptMissing', 'exists')
      }
      await actor.bouncer.with(DeptPolicy).authorize('create', parentId)
      const created = await Dept.create(fields, { client: trx })
      await auditCreated(trx, actor, 'dept', created)
      return created
    })
  }

  async update(actor: Actor, id: number, data: Infer<typeof updateDeptValidator>) {
    return db.transaction(async (trx) => {
      await lockTree(trx)
      const dept = await this.show(id, actor, trx)
      const parents = await deptParents(trx)
      const moved = data.parentId !== undefined && data.parentId !== dept.parentId
      const parentId = data.parentId ?? null
      if (moved && parentId !== null) {
        if (!parents.has(parentId)) {
          throw new FieldError('parentId', 'parentDeptMissing', 'exists')
        }
        // The new parent may not be the department itself or anything below it.
        if (subtreeOf(dept.id, parents).includes(parentId)) {
          throw new FieldError('parentId', 'departmentMoveBelowItself', 'notDescendant')
        }
      }
      await actor.bouncer
        .with(DeptPolicy)
        .authorize(
          'update',
          { id: dept.id, subtree: subtreeOf(dept.id, parents) },
          moved ? { parentId } : undefined
        )
      await saveAudited(trx, actor, 'dept', dept, () => dept.merge(definedOnly(data)))
      return dept
    })
  }

  /** Refused (409) while it has children or members: move or delete them first. */
  async destroy(actor: Actor, id: number) {
    await db.transaction(async (trx) => {
      await lockTree(trx)
      const dept = await this.show(id, actor, trx)
      await actor.bouncer.with(DeptPolicy).authorize('delete', dept)
      if (await trx.from('depts').where('parent_id', dept.id).select('id').first()) {
        throw conflict('departmentStillHasSub')
      }
      if (await trx.from('users').where('dept_id', dept.id).select('id').first()) {
        throw conflict('departmentStillHasMembers')
      }
      // role_depts rows go with it (FK cascade): custom scopes stop showing it.
      await deleteAudited(trx, actor, 'dept', dept)
    })
  }

  /** The departments a viewer sees (all with the `all` scope). */
  private seenBy<Query extends ModelQueryBuilderContract<typeof Dept, Dept>>(
    viewer: Viewer,
    query: Query
  ): Query {
    const { scope } = viewer.access
    if (!scope.all) query.whereIn('id', [...scope.deptIds])
    return query
  }
}

/**
 * Serializes the writes of the tree on PostgreSQL (two concurrent moves could each pass the cycle
 * check and together make a cycle). SQLite runs one writer at a time anyway.
 */
async function lockTree(trx: QueryClientContract) {
  if (trx.dialect.name === 'postgres') {
    await trx.rawQuery('LOCK TABLE depts IN SHARE ROW EXCLUSIVE MODE')
  }
}

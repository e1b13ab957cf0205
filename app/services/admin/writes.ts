import db from '@adonisjs/lucid/services/db'
import type { LucidModel, LucidRow, ModelAttributes } from '@adonisjs/lucid/types/model'
import type { TransactionClientContract, QueryClientContract } from '@adonisjs/lucid/types/database'
import { type AuditEntry, changedFields, recordAudit } from '#services/audit_log'
import type { Actor } from '#services/admin/common'

/*
| Admin writes: each runs in its transaction together with its audit row, so a rolled-back change
| leaves no row and a committed one always has one.
*/

type Audited = LucidRow & { id: number }
type AuditChanges = NonNullable<AuditEntry['changes']>

/** The audit row of an admin write, in the write's own transaction (app/services/audit_log.ts). */
export function audit(client: QueryClientContract, actor: Actor, entry: AuditEntry) {
  return recordAudit(client, actor.audit, entry)
}

/** The audit row of a created record: every column, plus the ids it was linked to. */
export function auditCreated(
  trx: TransactionClientContract,
  actor: Actor,
  targetType: string,
  record: Pick<Audited, 'id' | '$attributes'>,
  links: Record<string, number[]> = {}
) {
  const changes: AuditChanges = changedFields({}, record.$attributes)
  for (const [field, ids] of Object.entries(links)) changes[field] = [[], ids]
  return audit(trx, actor, { targetType, targetId: record.id, changes })
}

/** Applies `change` to `record` and saves it in `trx`, with the audit row of what changed. */
export async function saveAudited(
  trx: TransactionClientContract,
  actor: Actor,
  targetType: string,
  record: Audited,
  change: () => unknown
) {
  const before = { ...record.$attributes }
  record.useTransaction(trx)
  await change()
  await record.save()
  const changes = changedFields(before, record.$attributes)
  await audit(trx, actor, { targetType, targetId: record.id, changes })
}

/** Deletes `record` in `trx`, with the audit row of what it held. */
export async function deleteAudited(
  trx: TransactionClientContract,
  actor: Actor,
  targetType: string,
  record: Audited
) {
  const before = { ...record.$attributes }
  record.useTransaction(trx)
  await record.delete()
  await audit(trx, actor, { targetType, targetId: record.id, changes: changedFields(before, {}) })
}

/** Creates a `model` record from `values` in its own transaction, with its audit row. */
export function createAudited<Model extends LucidModel>(
  actor: Actor,
  targetType: string,
  model: Model,
  values: Partial<ModelAttributes<InstanceType<Model>>>,
  /** Checks in the transaction, before the insert. */
  before?: (trx: TransactionClientContract) => Promise<unknown>
) {
  return db.transaction(async (trx) => {
    await before?.(trx)
    const created = await model.create(values, { client: trx })
    await auditCreated(trx, actor, targetType, created as InstanceType<Model> & { id: number })
    return created
  })
}

/**
 * Updates in its own transaction the record `find` reads there: `change` (its checks first)
 * applied and saved, with the audit row of what changed.
 */
export function updateAudited<Row extends Audited>(
  actor: Actor,
  targetType: string,
  find: (trx: TransactionClientContract) => Promise<Row>,
  change: (record: Row) => unknown
) {
  return db.transaction(async (trx) => {
    const record = await find(trx)
    await saveAudited(trx, actor, targetType, record, () => change(record))
    return record
  })
}

/** Deletes in its own transaction the record `find` reads there, with the audit row. */
export async function destroyAudited(
  actor: Actor,
  targetType: string,
  find: (trx: TransactionClientContract) => Promise<Audited>
) {
  await db.transaction(async (trx) => deleteAudited(trx, actor, targetType, await find(trx)))
}

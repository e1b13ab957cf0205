import { type Infer, named, s, shape, sortable } from '#openapi/schema'

/*
| Access review (app/services/admin/access_review.ts, docs/admin-modules.md "Access review").
*/

const accountFields = {
  id: s.integer(),
  account: s.string(),
  nickname: s.string(),
  status: s.enum(['enabled', 'disabled']),
}
const account = s.object(accountFields)

/** A role granting a code. */
const roleRef = s.object({ id: s.integer(), code: s.string(), name: s.string() })

/** One reason an account holds a code: a role holding the node, and the node's menu path. */
const grant = s.object({
  role: roleRef,
  /** Root directory -> the node carrying the code (ids and names); empty: super admin, no node. */
  path: s.array(s.object({ id: s.integer(), name: s.string() })),
})

const tokenRef = {
  id: s.integer(),
  name: s.string(),
  hint: s.string(),
  expiresAt: s.dateTime(),
}

/** GET /api/admin/access/users/:id. */
export const accessUser = shape({
  user: account,
  isSuperAdmin: s.boolean(),
  roles: s.array(
    s.object({
      id: s.integer(),
      code: s.string(),
      name: s.string(),
      status: s.enum(['enabled', 'disabled']),
    })
  ),
  scope: s.object({ all: s.boolean(), self: s.boolean(), deptIds: s.array(s.integer()) }),
  codes: s.array(s.object({ code: s.string(), grants: s.array(grant) })),
  /** Live API tokens: `permissions` as stored, `effective` those the owner still holds. */
  tokens: s.array(
    s.object({
      ...tokenRef,
      permissions: s.array(s.string()),
      effective: s.array(s.string()),
    })
  ),
})
export const accessUserSchema = named('AccessUser', accessUser.schema)

/** A row of GET /api/admin/access/codes/:code: an account holding it, through which roles. */
export const accessHolder = shape({
  ...accountFields,
  roles: s.array(roleRef),
  /** Its live tokens whose effective codes include the code. */
  tokens: s.array(s.object(tokenRef)),
})
export const accessHolderSchema = named('AccessHolder', accessHolder.schema)
/** What `sort` accepts on the holders (default: by id). */
export const accessHolderSort = sortable(accessHolder, ['id', 'account'])

/** A role or menu named by an audit row: names as they are now (null once deleted). */
const changedRole = s.object({
  id: s.integer(),
  code: s.nullable(s.string()),
  name: s.nullable(s.string()),
})
const changedMenu = s.object({
  id: s.integer(),
  name: s.nullable(s.string()),
  permission: s.nullable(s.string()),
})
const delta = s.object({
  roles: s.array(changedRole),
  menus: s.array(changedMenu),
  /** The codes carried by `menus`. */
  codes: s.array(s.string()),
})
const scopeSide = s.object({
  dataScope: s.nullable(s.string()),
  deptIds: s.nullable(s.array(s.integer())),
})

/** A row of GET /api/admin/access/changes: one audited grant or revocation. */
export const accessChange = shape({
  id: s.integer(),
  createdAt: s.dateTime(),
  actorId: s.nullable(s.integer()),
  actor: s.string(),
  permission: s.string(),
  subject: s.object({
    type: s.enum(['user', 'role']),
    id: s.nullable(s.integer()),
    /** The account or role name (null once deleted). */
    name: s.nullable(s.string()),
  }),
  /** The role itself was deleted (its holders lost what it granted). */
  deleted: s.boolean(),
  added: delta,
  removed: delta,
  /** A role's data scope before and after (fields that did not change are null). */
  scope: s.nullable(s.object({ before: scopeSide, after: scopeSide })),
  status: s.nullable(s.object({ before: s.string(), after: s.string() })),
})
export const accessChangeSchema = named('AccessChange', accessChange.schema)
/** What `sort` accepts on the changes (default: newest first). */
export const accessChangeSort = sortable(accessChange, ['id', 'createdAt'])

export type AccessRef = Infer<typeof roleRef>
export type AccessGrant = Infer<typeof grant>
export type AccessChangeRef = Infer<typeof changedRole>
export type AccessMenuRef = Infer<typeof changedMenu>
export type AccessChange = Infer<typeof accessChange.schema>

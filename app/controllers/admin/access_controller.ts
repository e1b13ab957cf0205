import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import AccessReviewService from '#services/admin/access_review'
import { actorOf } from '#services/admin/common'
import { exportOperation, sendExport } from '#services/admin/list_export'
import {
  accessChangesValidator,
  accessExportValidator,
  accessHoldersValidator,
} from '#validators/admin/access'
import { accessChangeSchema, accessHolderSchema, accessUserSchema } from '#resources/access'
import { contract } from '#openapi/contract'

/** /api/admin/access: who can do what, and why (access review). */
@inject()
export default class AccessController {
  static contract = contract({
    user: {
      summary:
        "An account's effective permission codes, each with the roles and menu paths granting it",
      description:
        'The codes are those the account holds right now (the same computation as its /api/auth/me), ' +
        'with its roles, data scope and live API tokens (each with its effective codes). An account ' +
        "outside the caller's data scope: 404.",
      data: accessUserSchema,
    },
    code: {
      summary:
        'The accounts in scope holding a permission code, through which roles, with their tokens',
      description: 'Paged by account id. An unknown code: 404.',
      query: accessHoldersValidator,
      page: accessHolderSchema,
    },
    changes: {
      summary: 'Grants and revocations in a period, from the audit log',
      description:
        "A user's roles, a role's menus, data scope and status, a role's deletion; newest first. " +
        '`from` inclusive, `to` exclusive, at most 366 days apart; by default the last 30 days.',
      query: accessChangesValidator,
      page: accessChangeSchema,
    },
    export: {
      ...exportOperation('the access matrix', accessExportValidator),
      summary:
        'Export the access matrix as CSV or XLSX: a row per account in scope, a column per code',
      description:
        'Streams one row per account in scope (id, account, nickname, status) and one column per ' +
        'catalogued code, `x` where held, as `format=csv` (RFC 4180, CRLF, UTF-8 with a BOM) or ' +
        '`format=xlsx` (one sheet, the same cells). Bounded, formula-neutralised and audited ' +
        "like the lists' exports.",
    },
  })

  constructor(protected access: AccessReviewService) {}

  async user(ctx: HttpContext) {
    return { data: await this.access.user(actorOf(ctx), Number(ctx.params.id)) }
  }

  async code(ctx: HttpContext) {
    const page = await ctx.request.validateUsing(accessHoldersValidator)
    const { rows, meta } = await this.access.code(actorOf(ctx), ctx.params.code, page)
    return { data: rows, meta }
  }

  async changes(ctx: HttpContext) {
    const filters = await ctx.request.validateUsing(accessChangesValidator)
    const { rows, meta } = await this.access.changes(actorOf(ctx), filters)
    return { data: rows, meta }
  }

  async export(ctx: HttpContext) {
    const filters = await ctx.request.validateUsing(accessExportValidator)
    const matrix = await this.access.matrix(actorOf(ctx))
    return sendExport(ctx, { name: 'access-matrix', filters, ...matrix })
  }
}

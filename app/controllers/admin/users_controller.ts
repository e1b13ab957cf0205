import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import UserService from '#services/admin/user_service'
import { actorOf } from '#services/admin/common'
import type User from '#models/user'
import UserTransformer from '#transformers/admin/user_transformer'
import {
  assignRolesValidator,
  createUserValidator,
  exportUsersValidator,
  importUsersValidator,
  listUsersValidator,
  resetPasswordValidator,
  updateUserValidator,
} from '#validators/admin/user'
import { contract } from '#openapi/contract'
import { userSchema } from '#transformers/admin/user_transformer'
import { userCsv } from '#resources/users'
import { exportOperation, sendExport } from '#services/admin/list_export'
import { readUpload } from '#core/uploads'
import { MAX_BYTES, importTemplate, importUsers } from '#services/admin/user_import'
import { localeOf, rowMessageOf } from '#exceptions/messages'
import { importResultSchema } from '#transformers/admin/user_import_transformer'
import { s } from '#openapi/schema'

/** /api/admin/users: each route declares its permission in start/routes/admin.ts. */
@inject()
export default class UsersController {
  static contract = contract({
    index: { summary: 'List administrators', query: listUsersValidator, page: userSchema },
    export: exportOperation('administrators', exportUsersValidator),
    show: { summary: 'One administrator', data: userSchema },
    store: {
      summary: 'Create an administrator (roles only among those the caller holds)',
      body: createUserValidator,
      status: 201,
      data: userSchema,
      errors: [409],
    },
    update: {
      summary: 'Update an administrator',
      body: updateUserValidator,
      data: userSchema,
      errors: [409],
    },
    destroy: { summary: 'Delete an administrator', status: 204 },
    assignRoles: {
      summary: "Replace an administrator's roles (grant rule)",
      body: assignRolesValidator,
      data: userSchema,
    },
    resetPassword: {
      summary: 'Set a new password; every session of the account ends',
      body: resetPasswordValidator,
      data: userSchema,
    },
    unlock: { summary: 'Lift the login lock of the account', data: userSchema },
    import: {
      summary: 'Import administrators from a CSV or XLSX file (all or nothing; dry run by default)',
      description:
        'multipart/form-data, the file in the part `file` (<= 10,000 rows, <= 5 MB, cells <= ' +
        '32 KB; an XLSX unpacks to <= 50 MB, else 413; columns as in the template). Every row ' +
        'passes what POST /api/admin/users checks, grant rule and ' +
        'data scope included; problems come per row as `{ row, field, code, message }`. With ' +
        '`dryRun=false` and no problem, every account is created with a generated password ' +
        '(returned once here, to be changed at the first sign-in); with a problem nothing is ' +
        'written: 403 when a row is refused by the grant rule or scope, else 422.',
      query: importUsersValidator,
      upload: { field: 'file' },
      data: importResultSchema,
      errors: [409, 413],
    },
    importTemplate: {
      summary: 'The import template (CSV)',
      raw: { schema: s.string(), contentType: 'text/csv' },
    },
    resetTwoFactor: {
      summary: "Remove the account's second factor (grant rule); every session of the account ends",
      status: 204,
    },
  })

  constructor(protected users: UserService) {}

  async index(ctx: HttpContext) {
    const filters = await ctx.request.validateUsing(listUsersValidator)
    const page = await this.users.list(actorOf(ctx), filters)
    return ctx.serialize(UserTransformer.paginate(page.rows, page.meta))
  }

  async import(ctx: HttpContext) {
    const { dryRun = true } = await ctx.request.validateUsing(importUsersValidator)
    const file = await readUpload(ctx.request, 'file', MAX_BYTES)
    ctx.response.header('Cache-Control', 'no-store')
    const result = await importUsers(actorOf(ctx), file, dryRun)
    // Each row's problem in the caller's language, its fields picked.
    const locale = localeOf(ctx)
    const errors = result.errors.map((entry) => ({
      row: entry.row,
      field: entry.field,
      code: entry.code,
      message: rowMessageOf(entry, locale),
    }))
    return { data: { ...result, errors } }
  }

  async importTemplate({ response }: HttpContext) {
    response.header('Content-Type', 'text/csv; charset=utf-8')
    response.header('Content-Disposition', 'attachment; filename="users-import.csv"')
    return importTemplate()
  }

  async export(ctx: HttpContext) {
    const filters = await ctx.request.validateUsing(exportUsersValidator)
    return sendExport(ctx, {
      name: 'users',
      query: this.users.exportQuery(actorOf(ctx), filters),
      filters,
      columns: userCsv,
      toObject: (user) => new UserTransformer(user).toObject(),
    })
  }

  async show(ctx: HttpContext) {
    return shown(ctx, await this.users.show(actorOf(ctx), ctx.params.id))
  }

  async store(ctx: HttpContext) {
    const user = await this.users.create(
      actorOf(ctx),
      await ctx.request.validateUsing(createUserValidator)
    )
    ctx.response.status(201)
    return ctx.serialize(UserTransformer.transform(user))
  }

  async update(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(updateUserValidator)
    return shown(ctx, await this.users.update(actorOf(ctx), ctx.params.id, data))
  }

  async destroy(ctx: HttpContext) {
    await this.users.destroy(actorOf(ctx), ctx.params.id)
    return ctx.response.noContent()
  }

  async assignRoles(ctx: HttpContext) {
    const { roleIds } = await ctx.request.validateUsing(assignRolesValidator)
    return shown(ctx, await this.users.assignRoles(actorOf(ctx), ctx.params.id, roleIds))
  }

  async unlock(ctx: HttpContext) {
    return shown(ctx, await this.users.unlock(actorOf(ctx), ctx.params.id))
  }

  async resetTwoFactor(ctx: HttpContext) {
    await this.users.resetTwoFactor(actorOf(ctx), ctx.params.id)
    return ctx.response.noContent()
  }

  async resetPassword(ctx: HttpContext) {
    const { password } = await ctx.request.validateUsing(resetPasswordValidator)
    return shown(ctx, await this.users.resetPassword(actorOf(ctx), ctx.params.id, password))
  }
}

/** The account as every write answers it. */
const shown = ({ serialize }: HttpContext, user: User) => serialize(UserTransformer.transform(user))

import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import app from '@adonisjs/core/services/app'
import User from '#models/user'
import Role, { SUPER_ADMIN_ROLE } from '#models/role'
import Menu from '#models/menu'
import Article from '#models/article'
import AuditLog from '#models/audit_log'
import LoginLog from '#models/login_log'
import AdminSession from '#models/admin_session'
import { buildDocument } from '#openapi/document'
import { createSession } from '#auth/sessions'
import { loadAccessSnapshot } from '#auth/access_snapshot'
import { ArticleQueryService } from '#services/public/article_query_service'
import UserTransformer from '#transformers/admin/user_transformer'
import RoleTransformer from '#transformers/admin/role_transformer'
import MenuTransformer, { MenuTreeTransformer } from '#transformers/admin/menu_transformer'
import AdminArticleTransformer from '#transformers/admin/article_transformer'
import AuditLogTransformer from '#transformers/admin/audit_log_transformer'
import LoginLogTransformer from '#transformers/admin/login_log_transformer'
import SessionTransformer from '#transformers/admin/session_transformer'
import CurrentUserTransformer from '#transformers/auth/current_user_transformer'
import { pendingRequirement } from '#auth/account_requirements'
import OwnSessionTransformer from '#transformers/auth/own_session_transformer'
import PublicArticleTransformer from '#transformers/public/article_transformer'
import { ArticleFactory } from '#database/factories/article_factory'
import { withRealCommits } from '#tests/helpers/database'

type Schema = Record<string, any>

/**
 * Where `value` (a transformer's output, as JSON) and `schema` (from the generated document)
 * disagree on keys, at any depth: a key the document does not declare, or a declared one missing.
 */
function drift(value: unknown, schema: Schema, schemas: Schema, path = '$'): string[] {
  if (schema.$ref) return drift(value, schemas[schema.$ref.split('/').pop()], schemas, path)
  if (schema.anyOf) {
    if (value === null) return []
    return drift(
      value,
      schema.anyOf.find((s: Schema) => s.type !== 'null'),
      schemas,
      path
    )
  }
  if (Array.isArray(value)) {
    return value.flatMap((item, i) => drift(item, schema.items, schemas, `${path}[${i}]`))
  }
  if (typeof value !== 'object' || value === null || !schema.properties) return []
  const declared = Object.keys(schema.properties)
  return [
    ...Object.keys(value)
      .filter((key) => !declared.includes(key))
      .map((key) => `${path}.${key} is not in the document`),
    ...declared.filter((key) => !(key in value)).map((key) => `${path}.${key} is missing`),
    ...declared
      .filter((key) => key in value)
      .flatMap((key) =>
        drift((value as any)[key], schema.properties[key], schemas, `${path}.${key}`)
      ),
  ]
}

const json = (value: unknown) => JSON.parse(JSON.stringify(value))

/** Every transformer, fed real rows read the way the services read them, with its schema name. */
async function transformed() {
  const admin = await User.query().where('account', 'admin').preload('roles').firstOrFail()
  const role = await Role.query().where('code', SUPER_ADMIN_ROLE).preload('menus').firstOrFail()
  const child = await Menu.query().whereNotNull('parentId').firstOrFail()
  const parent = await Menu.findOrFail(child.parentId)
  const withAuthor = await ArticleFactory.merge({ authorId: admin.id }).create()
  await ArticleFactory.merge({ authorId: null }).create()
  const articles = await Article.query().preload('author').orderBy('id', 'desc').limit(2)
  const { id: auditId } = await AuditLog.create({
    createdAt: DateTime.utc(),
    actorId: admin.id,
    actor: 'admin',
    permission: 'system:user:update',
    targetType: 'user',
    targetId: String(admin.id),
    outcome: 'succeeded',
    changes: { nickname: ['a', 'b'] },
  })
  const { id: loginId } = await LoginLog.create({
    createdAt: DateTime.utc(),
    account: 'admin',
    userId: admin.id,
    ip: '127.0.0.1',
    userAgent: 'test',
    outcome: 'succeeded',
  })
  const sessionId = await createSession(admin.id, { ip: '127.0.0.1', userAgent: 'test' })
  const session = await AdminSession.query().where('id', sessionId).preload('user').firstOrFail()
  session.$extras.current = true
  const { snapshot } = await loadAccessSnapshot(admin.id, admin.deptId)
  const publicArticles = await app.container.make(ArticleQueryService)

  const menuNode = { menu: parent, children: [{ menu: child, children: [] }] }
  return [
    ['User', new UserTransformer(admin).toObject()],
    ['CurrentUser', new CurrentUserTransformer(admin).toObject()],
    ['Role', new RoleTransformer(role).toObject()],
    ['RoleDetail', new RoleTransformer(role).toDetail()],
    ['Menu', new MenuTransformer(parent).toObject()],
    ['MenuTree', new MenuTreeTransformer(menuNode).toObject()],
    ...articles.map((article) => ['AdminArticle', new AdminArticleTransformer(article).toObject()]),
    ...articles.map((article) => [
      'AdminArticleDetail',
      new AdminArticleTransformer(article).toDetail(),
    ]),
    ['AuditLog', new AuditLogTransformer(await AuditLog.findOrFail(auditId)).toObject()],
    ['LoginLog', new LoginLogTransformer(await LoginLog.findOrFail(loginId)).toObject()],
    ['Session', new SessionTransformer(session).toObject()],
    ['OwnSession', new OwnSessionTransformer(session).toObject()],
    ...(await publicArticles.list({})).rows.map((row) => [
      'PublicArticle',
      new PublicArticleTransformer(row).toObject(),
    ]),
    [
      'PublicArticleDetail',
      new PublicArticleTransformer((await publicArticles.findBySlug(withAuthor.slug))!).forDetail(),
    ],
    // The /me body as MeController.show writes it.
    [
      '/api/auth/me',
      {
        user: new CurrentUserTransformer(admin).toObject(),
        pendingRequirement: pendingRequirement(admin, snapshot),
        ...JSON.parse(`{${snapshot.toJsonFragment()}}`),
      },
    ],
  ] as [string, unknown][]
}

test.group('Response shapes: what the transformers emit is what the document declares', (group) => {
  // Real commits: the public module reads on its own connection.
  withRealCommits(group)

  test('every transformer output has exactly the keys of its schema, at every depth', async ({
    assert,
  }) => {
    const { document } = await buildDocument({ title: 't', version: '0' })
    const schemas = document.components.schemas
    const me = document.paths['/api/auth/me'].get.responses['200'].content['application/json']
    const cases = await transformed()
    assert.includeMembers(
      cases.map(([name]) => name),
      ['User', 'MenuTree', 'AdminArticleDetail', 'PublicArticle', 'OwnSession', '/api/auth/me']
    )
    const drifts = cases.flatMap(([name, output]) => {
      const schema = name === '/api/auth/me' ? me.schema.properties.data : schemas[name]
      assert.exists(schema, name)
      return drift(json(output), schema, schemas, name)
    })
    assert.deepEqual(drifts, [])
  })

  test('the comparison catches a stray or missing key, nested ones included', async ({
    assert,
  }) => {
    const { document } = await buildDocument({ title: 't', version: '0' })
    const schemas = document.components.schemas
    const admin = await User.query().where('account', 'admin').preload('roles').firstOrFail()
    const user = json(new UserTransformer(admin).toObject())
    assert.isAbove(user.roles.length, 0)

    user.stray = 1
    user.roles[0].internal = true
    delete user.nickname
    assert.sameMembers(drift(user, schemas.User, schemas), [
      '$.stray is not in the document',
      '$.nickname is missing',
      '$.roles[0].internal is not in the document',
    ])
  })
})

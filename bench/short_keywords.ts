/*
| node --import @poppinss/ts-exec bench/short_keywords.ts [--load]: the public keyword search at
| 100,000 articles on PostgreSQL, by keyword length (1, 2, 3+ characters, Chinese and Latin), as
| the database runs it: the page (page 1) and count statements the public service sends
| (ArticleQueryService.statements), each under EXPLAIN (ANALYZE) BENCH_REPEAT times (default 5),
| the median execution time, and the indexes the plan reads. docs/public-modules.md quotes it.
|
| Its own database (BENCH_PG_DB, default adonis_rbac_bench_cjk), prepared with:
|   DB_CONNECTION=pg PG_DB_NAME=adonis_rbac_bench_cjk NODE_ENV=test node ace migration:run --force
|   DB_CONNECTION=pg PG_DB_NAME=adonis_rbac_bench_cjk NODE_ENV=test node ace db:seed
| --load (re)loads the articles: articles:load's rows, then Chinese words in every title and
| summary (BENCH_ARTICLES, default 100,000).
*/
import 'reflect-metadata'
import { Ignitor } from '@adonisjs/core'

const APP_ROOT = new URL('../', import.meta.url)
const COUNT = Number(process.env.BENCH_ARTICLES ?? 100_000)
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5)
process.env.NODE_ENV ??= 'test'
process.env.DB_CONNECTION = 'pg'
process.env.PG_DB_NAME = process.env.BENCH_PG_DB ?? 'adonis_rbac_bench_cjk'

/** 40 two-character words: a title holds three of them and '的', a summary two more. */
const WORDS =
  '权限 管理 用户 角色 菜单 部门 字典 参数 通知 公告 文章 发布 系统 监控 日志 令牌 ' +
  '登录 密码 设备 会话 审计 数据 范围 导出 导入 缓存 索引 查询 搜索 中文 服务 接口 ' +
  '文档 测试 性能 安全 配置 版本 更新 指南'

/** Keyword, what it matches in the data set. */
const KEYWORDS: [string, string][] = [
  ['的', '1 char, every row'],
  ['权', '1 char, ~7% of rows'],
  ['鑫', '1 char, no row'],
  ['e', '1 char Latin, every row'],
  ['权限', '2 chars, ~7% of rows'],
  ['罕见', '2 chars, one row'],
  ['鑫鑫', '2 chars, no row'],
  ['zq', '2 chars Latin, no row'],
  ['权限管', '3 chars, 63 rows'],
  ['zqxjvw', '6 chars, no row'],
  ['article', '7 chars, every row'],
]

type PlanNode = {
  'Node Type': string
  'Index Name'?: string
  'Relation Name'?: string
  'Plans'?: PlanNode[]
}
const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)]
/** The service's `?` placeholders as pg's $n (prepared_query does the same). */
const numbered = (sql: string) => {
  let n = 0
  return sql.replace(/\?/g, () => `$${++n}`)
}
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]

const app = new Ignitor(APP_ROOT, {
  importer: (path: string) =>
    path.startsWith('./') || path.startsWith('../')
      ? import(new URL(path, APP_ROOT).href)
      : import(path),
}).createApp('console')
app.booting(async () => {
  await import('#start/env')
})
await app.init()
await app.boot()
await app.start(async () => {})

const { default: db } = await import('@adonisjs/lucid/services/db')
const { PUBLIC_CONNECTION } = await import('#config/database')
const { ArticleQueryService } = await import('#services/public/article_query_service')
const { loadArticles } = await import('../commands/load_articles.js')

try {
  if (process.argv.includes('--load')) {
    const started = performance.now()
    await loadArticles(db, COUNT, { truncate: true })
    const words = `{${WORDS.split(' ').join(',')}}`
    // Spread over rows by different strides, so words pair up in many ways.
    await db.rawQuery(
      `UPDATE articles SET
         title = title || ' ' || (?::text[])[1 + id % 40] || (?::text[])[1 + (id / 40) % 40]
                 || '的' || (?::text[])[1 + (id / 1600) % 40],
         summary = summary || '：' || (?::text[])[1 + (id * 7) % 40] || (?::text[])[1 + (id * 13) % 40]`,
      [words, words, words, words, words]
    )
    await db.rawQuery(`UPDATE articles SET summary = summary || '，罕见' WHERE id = ?`, [
      Math.floor(COUNT / 2),
    ])
    await db.rawQuery('VACUUM ANALYZE articles')
    console.error(
      `loaded ${COUNT} articles in ${((performance.now() - started) / 1000).toFixed(1)} s`
    )
  }

  const service = new ArticleQueryService()
  const knex = db.connection(PUBLIC_CONNECTION).getReadClient()
  const connection = await knex.client.acquireConnection()
  const [{ count }] = (await connection.query('SELECT COUNT(*) AS count FROM articles')).rows
  console.log(`PostgreSQL, ${count} articles, EXPLAIN ANALYZE median of ${REPEAT}`)
  console.log(
    ['keyword', 'matches', 'page ms', 'count ms', 'total', 'indexes read (page | count)'].join(
      ' | '
    )
  )
  try {
    for (const [keyword, what] of KEYWORDS) {
      const filters = { keyword }
      const { page, count: counted } = service.statements(filters as any, new Date().toISOString())
      const cells: string[] = []
      const indexes: string[] = []
      for (const statement of [page, counted]) {
        const text = numbered(statement.sql)
        const times: number[] = []
        let plan: PlanNode[] = []
        for (let i = 0; i < REPEAT; i++) {
          const result = await connection.query({
            text: `EXPLAIN (ANALYZE, FORMAT JSON) ${text}`,
            values: statement.bindings,
          })
          const top = result.rows[0]['QUERY PLAN'][0]
          times.push(top['Execution Time'])
          plan = nodes(top.Plan)
        }
        cells.push(median(times).toFixed(2))
        const seq = plan.some(
          (node) => node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'articles'
        )
          ? ' + Seq Scan on articles'
          : ''
        indexes.push(
          [...new Set(plan.map((node) => node['Index Name']).filter(Boolean))].join(', ') + seq
        )
      }
      const total = (
        await connection.query({ text: numbered(counted.sql), values: counted.bindings })
      ).rows[0].total
      console.log([keyword, what, ...cells, total, indexes.join(' | ')].join(' | '))
    }
  } finally {
    await knex.client.releaseConnection(connection)
  }
} finally {
  await app.terminate()
}

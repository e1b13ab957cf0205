import { BaseSeeder } from '@adonisjs/lucid/seeders'
import db from '@adonisjs/lucid/services/db'
import DictType from '#models/dict_type'
import DictItem from '#models/dict_item'
import Param from '#models/param'

import { type Localized, seedLocale } from '#database/seed_locale'

/**
 * The dictionaries the console reads (status chips and selects) and the system parameters.
 * Find-or-create by code / value / key: seeding again adds what is missing and never overwrites
 * what an administrator changed. Names, labels and display values in the SEED_LOCALE language;
 * codes, values and keys are the same in every language.
 */
const DICTS: {
  code: string
  name: Localized
  items: { label: Localized; value: string; cssClass: string }[]
}[] = [
  {
    code: 'sys_user_status',
    name: { 'en': 'Account status', 'zh-CN': '账号状态' },
    items: [
      { label: { 'en': 'Enabled', 'zh-CN': '启用' }, value: 'enabled', cssClass: 'success' },
      { label: { 'en': 'Disabled', 'zh-CN': '停用' }, value: 'disabled', cssClass: 'default' },
    ],
  },
  {
    code: 'sys_article_status',
    name: { 'en': 'Article status', 'zh-CN': '文章状态' },
    items: [
      { label: { 'en': 'Draft', 'zh-CN': '草稿' }, value: 'draft', cssClass: 'default' },
      { label: { 'en': 'Published', 'zh-CN': '已发布' }, value: 'published', cssClass: 'success' },
      { label: { 'en': 'Archived', 'zh-CN': '已归档' }, value: 'archived', cssClass: 'warning' },
    ],
  },
  {
    code: 'sys_notice_level',
    name: { 'en': 'Notice level', 'zh-CN': '通知级别' },
    items: [
      { label: { 'en': 'Information', 'zh-CN': '信息' }, value: 'info', cssClass: 'info' },
      { label: { 'en': 'Warning', 'zh-CN': '警告' }, value: 'warning', cssClass: 'warning' },
      { label: { 'en': 'Critical', 'zh-CN': '严重' }, value: 'critical', cssClass: 'error' },
    ],
  },
]

const PARAMS = [
  {
    key: 'site.title',
    value: { 'en': 'Adonis RBAC', 'zh-CN': 'Adonis RBAC 管理系统' },
    type: 'string',
    isPublic: true,
    remark: { 'en': 'Shown by clients', 'zh-CN': '客户端显示的站点名称' },
  },
] as const

export default class SettingsSeeder extends BaseSeeder {
  async run() {
    const locale = seedLocale()
    await db.transaction(async (trx) => {
      for (const dict of DICTS) {
        await DictType.firstOrCreate(
          { code: dict.code },
          { name: dict.name[locale], status: 'enabled', remark: null },
          { client: trx }
        )
        for (const [index, item] of dict.items.entries()) {
          await DictItem.firstOrCreate(
            { typeCode: dict.code, value: item.value },
            {
              label: item.label[locale],
              sort: index + 1,
              status: 'enabled',
              cssClass: item.cssClass,
            },
            { client: trx }
          )
        }
      }
      for (const param of PARAMS) {
        await Param.firstOrCreate(
          { key: param.key },
          {
            ...param,
            value: param.value[locale],
            remark: param.remark[locale],
            isSystem: true,
          },
          { client: trx }
        )
      }
    })
  }
}

import { BaseSeeder } from '@adonisjs/lucid/seeders'
import db from '@adonisjs/lucid/services/db'
import DictType from '#models/dict_type'
import DictItem from '#models/dict_item'
import Param from '#models/param'

/**
 * The dictionaries the console reads (status chips and selects) and the system parameters.
 * Find-or-create by code / value / key: seeding again adds what is missing and never overwrites
 * what an administrator changed.
 */
const DICTS = [
  {
    code: 'sys_user_status',
    name: 'Account status',
    items: [
      { label: 'Enabled', value: 'enabled', cssClass: 'success' },
      { label: 'Disabled', value: 'disabled', cssClass: 'default' },
    ],
  },
  {
    code: 'sys_article_status',
    name: 'Article status',
    items: [
      { label: 'Draft', value: 'draft', cssClass: 'default' },
      { label: 'Published', value: 'published', cssClass: 'success' },
      { label: 'Archived', value: 'archived', cssClass: 'warning' },
    ],
  },
  {
    code: 'sys_notice_level',
    name: 'Notice level',
    items: [
      { label: 'Information', value: 'info', cssClass: 'info' },
      { label: 'Warning', value: 'warning', cssClass: 'warning' },
      { label: 'Critical', value: 'critical', cssClass: 'error' },
    ],
  },
]

const PARAMS = [
  {
    key: 'site.title',
    value: 'Adonis RBAC',
    type: 'string',
    isPublic: true,
    remark: 'Shown by clients',
  },
] as const

export default class SettingsSeeder extends BaseSeeder {
  async run() {
    await db.transaction(async (trx) => {
      for (const dict of DICTS) {
        await DictType.firstOrCreate(
          { code: dict.code },
          { name: dict.name, status: 'enabled', remark: null },
          { client: trx }
        )
        for (const [index, item] of dict.items.entries()) {
          await DictItem.firstOrCreate(
            { typeCode: dict.code, value: item.value },
            { label: item.label, sort: index + 1, status: 'enabled', cssClass: item.cssClass },
            { client: trx }
          )
        }
      }
      for (const param of PARAMS) {
        await Param.firstOrCreate({ key: param.key }, { ...param, isSystem: true }, { client: trx })
      }
    })
  }
}

import '@adonisjs/core/types/http'

type ParamValue = string | number | bigint | boolean

export type ScannedRoutes = {
  ALL: {
    'health.live': { paramsTuple?: []; params?: {} }
    'health.ready': { paramsTuple?: []; params?: {} }
    'health': { paramsTuple?: []; params?: {} }
    'openapi.document': { paramsTuple?: []; params?: {} }
    'openapi.reference': { paramsTuple?: []; params?: {} }
    'openapi.asset': { paramsTuple: [ParamValue]; params: {'file': ParamValue} }
    'metrics': { paramsTuple?: []; params?: {} }
    'auth.captcha.challenge': { paramsTuple?: []; params?: {} }
    'auth.captcha.show': { paramsTuple?: []; params?: {} }
    'auth.captcha.verify': { paramsTuple?: []; params?: {} }
    'auth.login': { paramsTuple?: []; params?: {} }
    'auth.features': { paramsTuple?: []; params?: {} }
    'auth.password.forgot': { paramsTuple?: []; params?: {} }
    'auth.password.reset': { paramsTuple?: []; params?: {} }
    'auth.email.undo': { paramsTuple?: []; params?: {} }
    'auth.devices.request': { paramsTuple?: []; params?: {} }
    'auth.devices.enrol': { paramsTuple?: []; params?: {} }
    'auth.login.secondStep': { paramsTuple?: []; params?: {} }
    'auth.login.passkeyOptions': { paramsTuple?: []; params?: {} }
    'auth.login.passkey': { paramsTuple?: []; params?: {} }
    'auth.me': { paramsTuple?: []; params?: {} }
    'auth.password.update': { paramsTuple?: []; params?: {} }
    'auth.logout': { paramsTuple?: []; params?: {} }
    'auth.sessions.index': { paramsTuple?: []; params?: {} }
    'auth.sessions.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'auth.devices.index': { paramsTuple?: []; params?: {} }
    'auth.devices.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'auth.2fa.setup': { paramsTuple?: []; params?: {} }
    'auth.2fa.confirm': { paramsTuple?: []; params?: {} }
    'auth.passkeys.index': { paramsTuple?: []; params?: {} }
    'auth.passkeys.options': { paramsTuple?: []; params?: {} }
    'auth.passkeys.store': { paramsTuple?: []; params?: {} }
    'auth.passkeys.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'auth.2fa.destroy': { paramsTuple?: []; params?: {} }
    'auth.me.grantableMenus': { paramsTuple?: []; params?: {} }
    'auth.tokens.index': { paramsTuple?: []; params?: {} }
    'auth.tokens.store': { paramsTuple?: []; params?: {} }
    'auth.tokens.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'auth.notices.index': { paramsTuple?: []; params?: {} }
    'auth.notices.read': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'auth.profile.show': { paramsTuple?: []; params?: {} }
    'auth.profile.update': { paramsTuple?: []; params?: {} }
    'auth.avatar.update': { paramsTuple?: []; params?: {} }
    'auth.profile.email.verify': { paramsTuple?: []; params?: {} }
    'auth.profile.email.code': { paramsTuple?: []; params?: {} }
    'avatars.show': { paramsTuple: [ParamValue]; params: {'userId': ParamValue} }
    'dicts.show': { paramsTuple: [ParamValue]; params: {'code': ParamValue} }
    'admin.users.index': { paramsTuple?: []; params?: {} }
    'admin.users.export': { paramsTuple?: []; params?: {} }
    'admin.users.import_template': { paramsTuple?: []; params?: {} }
    'admin.users.import': { paramsTuple?: []; params?: {} }
    'admin.users.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.users.store': { paramsTuple?: []; params?: {} }
    'admin.users.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.users.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.users.assign_roles': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.users.reset_password': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.users.unlock': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.users.reset_two_factor': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.roles.index': { paramsTuple?: []; params?: {} }
    'admin.roles.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.roles.store': { paramsTuple?: []; params?: {} }
    'admin.roles.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.roles.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.roles.assign_menus': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.menus.tree': { paramsTuple?: []; params?: {} }
    'admin.menus.index': { paramsTuple?: []; params?: {} }
    'admin.menus.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.menus.store': { paramsTuple?: []; params?: {} }
    'admin.menus.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.menus.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.depts.tree': { paramsTuple?: []; params?: {} }
    'admin.depts.index': { paramsTuple?: []; params?: {} }
    'admin.depts.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.depts.store': { paramsTuple?: []; params?: {} }
    'admin.depts.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.depts.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.dicts.index': { paramsTuple?: []; params?: {} }
    'admin.dicts.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.dicts.store': { paramsTuple?: []; params?: {} }
    'admin.dicts.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.dicts.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.dicts.items': { paramsTuple: [ParamValue]; params: {'code': ParamValue} }
    'admin.dicts.store_item': { paramsTuple: [ParamValue]; params: {'code': ParamValue} }
    'admin.dicts.update_item': { paramsTuple: [ParamValue,ParamValue]; params: {'code': ParamValue,'id': ParamValue} }
    'admin.dicts.destroy_item': { paramsTuple: [ParamValue,ParamValue]; params: {'code': ParamValue,'id': ParamValue} }
    'admin.params.index': { paramsTuple?: []; params?: {} }
    'admin.params.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.params.store': { paramsTuple?: []; params?: {} }
    'admin.params.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.params.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.notices.index': { paramsTuple?: []; params?: {} }
    'admin.notices.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.notices.store': { paramsTuple?: []; params?: {} }
    'admin.notices.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.notices.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.articles.index': { paramsTuple?: []; params?: {} }
    'admin.articles.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.articles.store': { paramsTuple?: []; params?: {} }
    'admin.articles.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.articles.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.articles.publish': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.articles.unpublish': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.sessions.index': { paramsTuple?: []; params?: {} }
    'admin.sessions.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.api_tokens.index': { paramsTuple?: []; params?: {} }
    'admin.api_tokens.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.login_logs.index': { paramsTuple?: []; params?: {} }
    'admin.login_logs.export': { paramsTuple?: []; params?: {} }
    'admin.audit_logs.index': { paramsTuple?: []; params?: {} }
    'admin.audit_logs.export': { paramsTuple?: []; params?: {} }
    'admin.access.user': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.access.code': { paramsTuple: [ParamValue]; params: {'code': ParamValue} }
    'admin.access.changes': { paramsTuple?: []; params?: {} }
    'admin.access.export': { paramsTuple?: []; params?: {} }
    'public.articles.index': { paramsTuple?: []; params?: {} }
    'public.articles.show': { paramsTuple: [ParamValue]; params: {'slug': ParamValue} }
    'public.params.show': { paramsTuple: [ParamValue]; params: {'key': ParamValue} }
  }
  GET: {
    'health.live': { paramsTuple?: []; params?: {} }
    'health.ready': { paramsTuple?: []; params?: {} }
    'health': { paramsTuple?: []; params?: {} }
    'openapi.document': { paramsTuple?: []; params?: {} }
    'openapi.reference': { paramsTuple?: []; params?: {} }
    'openapi.asset': { paramsTuple: [ParamValue]; params: {'file': ParamValue} }
    'metrics': { paramsTuple?: []; params?: {} }
    'auth.captcha.challenge': { paramsTuple?: []; params?: {} }
    'auth.features': { paramsTuple?: []; params?: {} }
    'auth.me': { paramsTuple?: []; params?: {} }
    'auth.sessions.index': { paramsTuple?: []; params?: {} }
    'auth.devices.index': { paramsTuple?: []; params?: {} }
    'auth.passkeys.index': { paramsTuple?: []; params?: {} }
    'auth.me.grantableMenus': { paramsTuple?: []; params?: {} }
    'auth.tokens.index': { paramsTuple?: []; params?: {} }
    'auth.notices.index': { paramsTuple?: []; params?: {} }
    'auth.profile.show': { paramsTuple?: []; params?: {} }
    'avatars.show': { paramsTuple: [ParamValue]; params: {'userId': ParamValue} }
    'dicts.show': { paramsTuple: [ParamValue]; params: {'code': ParamValue} }
    'admin.users.index': { paramsTuple?: []; params?: {} }
    'admin.users.export': { paramsTuple?: []; params?: {} }
    'admin.users.import_template': { paramsTuple?: []; params?: {} }
    'admin.users.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.roles.index': { paramsTuple?: []; params?: {} }
    'admin.roles.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.menus.tree': { paramsTuple?: []; params?: {} }
    'admin.menus.index': { paramsTuple?: []; params?: {} }
    'admin.menus.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.depts.tree': { paramsTuple?: []; params?: {} }
    'admin.depts.index': { paramsTuple?: []; params?: {} }
    'admin.depts.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.dicts.index': { paramsTuple?: []; params?: {} }
    'admin.dicts.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.dicts.items': { paramsTuple: [ParamValue]; params: {'code': ParamValue} }
    'admin.params.index': { paramsTuple?: []; params?: {} }
    'admin.params.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.notices.index': { paramsTuple?: []; params?: {} }
    'admin.notices.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.articles.index': { paramsTuple?: []; params?: {} }
    'admin.articles.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.sessions.index': { paramsTuple?: []; params?: {} }
    'admin.api_tokens.index': { paramsTuple?: []; params?: {} }
    'admin.login_logs.index': { paramsTuple?: []; params?: {} }
    'admin.login_logs.export': { paramsTuple?: []; params?: {} }
    'admin.audit_logs.index': { paramsTuple?: []; params?: {} }
    'admin.audit_logs.export': { paramsTuple?: []; params?: {} }
    'admin.access.user': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.access.code': { paramsTuple: [ParamValue]; params: {'code': ParamValue} }
    'admin.access.changes': { paramsTuple?: []; params?: {} }
    'admin.access.export': { paramsTuple?: []; params?: {} }
    'public.articles.index': { paramsTuple?: []; params?: {} }
    'public.articles.show': { paramsTuple: [ParamValue]; params: {'slug': ParamValue} }
    'public.params.show': { paramsTuple: [ParamValue]; params: {'key': ParamValue} }
  }
  HEAD: {
    'health.live': { paramsTuple?: []; params?: {} }
    'health.ready': { paramsTuple?: []; params?: {} }
    'health': { paramsTuple?: []; params?: {} }
    'openapi.document': { paramsTuple?: []; params?: {} }
    'openapi.reference': { paramsTuple?: []; params?: {} }
    'openapi.asset': { paramsTuple: [ParamValue]; params: {'file': ParamValue} }
    'metrics': { paramsTuple?: []; params?: {} }
    'auth.captcha.challenge': { paramsTuple?: []; params?: {} }
    'auth.features': { paramsTuple?: []; params?: {} }
    'auth.me': { paramsTuple?: []; params?: {} }
    'auth.sessions.index': { paramsTuple?: []; params?: {} }
    'auth.devices.index': { paramsTuple?: []; params?: {} }
    'auth.passkeys.index': { paramsTuple?: []; params?: {} }
    'auth.me.grantableMenus': { paramsTuple?: []; params?: {} }
    'auth.tokens.index': { paramsTuple?: []; params?: {} }
    'auth.notices.index': { paramsTuple?: []; params?: {} }
    'auth.profile.show': { paramsTuple?: []; params?: {} }
    'avatars.show': { paramsTuple: [ParamValue]; params: {'userId': ParamValue} }
    'dicts.show': { paramsTuple: [ParamValue]; params: {'code': ParamValue} }
    'admin.users.index': { paramsTuple?: []; params?: {} }
    'admin.users.export': { paramsTuple?: []; params?: {} }
    'admin.users.import_template': { paramsTuple?: []; params?: {} }
    'admin.users.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.roles.index': { paramsTuple?: []; params?: {} }
    'admin.roles.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.menus.tree': { paramsTuple?: []; params?: {} }
    'admin.menus.index': { paramsTuple?: []; params?: {} }
    'admin.menus.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.depts.tree': { paramsTuple?: []; params?: {} }
    'admin.depts.index': { paramsTuple?: []; params?: {} }
    'admin.depts.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.dicts.index': { paramsTuple?: []; params?: {} }
    'admin.dicts.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.dicts.items': { paramsTuple: [ParamValue]; params: {'code': ParamValue} }
    'admin.params.index': { paramsTuple?: []; params?: {} }
    'admin.params.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.notices.index': { paramsTuple?: []; params?: {} }
    'admin.notices.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.articles.index': { paramsTuple?: []; params?: {} }
    'admin.articles.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.sessions.index': { paramsTuple?: []; params?: {} }
    'admin.api_tokens.index': { paramsTuple?: []; params?: {} }
    'admin.login_logs.index': { paramsTuple?: []; params?: {} }
    'admin.login_logs.export': { paramsTuple?: []; params?: {} }
    'admin.audit_logs.index': { paramsTuple?: []; params?: {} }
    'admin.audit_logs.export': { paramsTuple?: []; params?: {} }
    'admin.access.user': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.access.code': { paramsTuple: [ParamValue]; params: {'code': ParamValue} }
    'admin.access.changes': { paramsTuple?: []; params?: {} }
    'admin.access.export': { paramsTuple?: []; params?: {} }
    'public.articles.index': { paramsTuple?: []; params?: {} }
    'public.articles.show': { paramsTuple: [ParamValue]; params: {'slug': ParamValue} }
    'public.params.show': { paramsTuple: [ParamValue]; params: {'key': ParamValue} }
  }
  POST: {
    'auth.captcha.show': { paramsTuple?: []; params?: {} }
    'auth.captcha.verify': { paramsTuple?: []; params?: {} }
    'auth.login': { paramsTuple?: []; params?: {} }
    'auth.password.forgot': { paramsTuple?: []; params?: {} }
    'auth.password.reset': { paramsTuple?: []; params?: {} }
    'auth.email.undo': { paramsTuple?: []; params?: {} }
    'auth.devices.request': { paramsTuple?: []; params?: {} }
    'auth.devices.enrol': { paramsTuple?: []; params?: {} }
    'auth.login.secondStep': { paramsTuple?: []; params?: {} }
    'auth.login.passkeyOptions': { paramsTuple?: []; params?: {} }
    'auth.login.passkey': { paramsTuple?: []; params?: {} }
    'auth.logout': { paramsTuple?: []; params?: {} }
    'auth.2fa.setup': { paramsTuple?: []; params?: {} }
    'auth.2fa.confirm': { paramsTuple?: []; params?: {} }
    'auth.passkeys.options': { paramsTuple?: []; params?: {} }
    'auth.passkeys.store': { paramsTuple?: []; params?: {} }
    'auth.tokens.store': { paramsTuple?: []; params?: {} }
    'auth.notices.read': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'auth.profile.email.verify': { paramsTuple?: []; params?: {} }
    'auth.profile.email.code': { paramsTuple?: []; params?: {} }
    'admin.users.import': { paramsTuple?: []; params?: {} }
    'admin.users.store': { paramsTuple?: []; params?: {} }
    'admin.users.reset_password': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.users.unlock': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.roles.store': { paramsTuple?: []; params?: {} }
    'admin.menus.store': { paramsTuple?: []; params?: {} }
    'admin.depts.store': { paramsTuple?: []; params?: {} }
    'admin.dicts.store': { paramsTuple?: []; params?: {} }
    'admin.dicts.store_item': { paramsTuple: [ParamValue]; params: {'code': ParamValue} }
    'admin.params.store': { paramsTuple?: []; params?: {} }
    'admin.notices.store': { paramsTuple?: []; params?: {} }
    'admin.articles.store': { paramsTuple?: []; params?: {} }
    'admin.articles.publish': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.articles.unpublish': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
  }
  PUT: {
    'auth.password.update': { paramsTuple?: []; params?: {} }
    'auth.profile.update': { paramsTuple?: []; params?: {} }
    'auth.avatar.update': { paramsTuple?: []; params?: {} }
    'admin.users.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.users.assign_roles': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.roles.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.roles.assign_menus': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.menus.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.depts.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.dicts.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.dicts.update_item': { paramsTuple: [ParamValue,ParamValue]; params: {'code': ParamValue,'id': ParamValue} }
    'admin.params.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.notices.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.articles.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
  }
  DELETE: {
    'auth.sessions.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'auth.devices.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'auth.passkeys.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'auth.2fa.destroy': { paramsTuple?: []; params?: {} }
    'auth.tokens.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.users.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.users.reset_two_factor': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.roles.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.menus.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.depts.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.dicts.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.dicts.destroy_item': { paramsTuple: [ParamValue,ParamValue]; params: {'code': ParamValue,'id': ParamValue} }
    'admin.params.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.notices.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.articles.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.sessions.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'admin.api_tokens.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
  }
}
declare module '@adonisjs/core/types/http' {
  export interface RoutesList extends ScannedRoutes {}
}
import '@adonisjs/core/types/http'

type ParamValue = string | number | bigint | boolean

export type ScannedRoutes = {
  ALL: {
    'health': { paramsTuple?: []; params?: {} }
    'auth.captcha.show': { paramsTuple?: []; params?: {} }
    'auth.captcha.verify': { paramsTuple?: []; params?: {} }
    'auth.login': { paramsTuple?: []; params?: {} }
    'auth.me': { paramsTuple?: []; params?: {} }
    'auth.password.update': { paramsTuple?: []; params?: {} }
    'users.index': { paramsTuple?: []; params?: {} }
    'users.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'users.store': { paramsTuple?: []; params?: {} }
    'users.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'users.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'users.assign_roles': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'users.reset_password': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'roles.index': { paramsTuple?: []; params?: {} }
    'roles.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'roles.store': { paramsTuple?: []; params?: {} }
    'roles.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'roles.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'roles.assign_menus': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'menus.tree': { paramsTuple?: []; params?: {} }
    'menus.index': { paramsTuple?: []; params?: {} }
    'menus.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'menus.store': { paramsTuple?: []; params?: {} }
    'menus.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'menus.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'articles.index': { paramsTuple?: []; params?: {} }
    'articles.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'articles.store': { paramsTuple?: []; params?: {} }
    'articles.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'articles.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'articles.publish': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'articles.unpublish': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'public.articles.index': { paramsTuple?: []; params?: {} }
    'public.articles.show': { paramsTuple: [ParamValue]; params: {'slug': ParamValue} }
  }
  GET: {
    'health': { paramsTuple?: []; params?: {} }
    'auth.captcha.show': { paramsTuple?: []; params?: {} }
    'auth.me': { paramsTuple?: []; params?: {} }
    'users.index': { paramsTuple?: []; params?: {} }
    'users.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'roles.index': { paramsTuple?: []; params?: {} }
    'roles.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'menus.tree': { paramsTuple?: []; params?: {} }
    'menus.index': { paramsTuple?: []; params?: {} }
    'menus.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'articles.index': { paramsTuple?: []; params?: {} }
    'articles.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'public.articles.index': { paramsTuple?: []; params?: {} }
    'public.articles.show': { paramsTuple: [ParamValue]; params: {'slug': ParamValue} }
  }
  HEAD: {
    'health': { paramsTuple?: []; params?: {} }
    'auth.captcha.show': { paramsTuple?: []; params?: {} }
    'auth.me': { paramsTuple?: []; params?: {} }
    'users.index': { paramsTuple?: []; params?: {} }
    'users.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'roles.index': { paramsTuple?: []; params?: {} }
    'roles.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'menus.tree': { paramsTuple?: []; params?: {} }
    'menus.index': { paramsTuple?: []; params?: {} }
    'menus.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'articles.index': { paramsTuple?: []; params?: {} }
    'articles.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'public.articles.index': { paramsTuple?: []; params?: {} }
    'public.articles.show': { paramsTuple: [ParamValue]; params: {'slug': ParamValue} }
  }
  POST: {
    'auth.captcha.verify': { paramsTuple?: []; params?: {} }
    'auth.login': { paramsTuple?: []; params?: {} }
    'users.store': { paramsTuple?: []; params?: {} }
    'users.reset_password': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'roles.store': { paramsTuple?: []; params?: {} }
    'menus.store': { paramsTuple?: []; params?: {} }
    'articles.store': { paramsTuple?: []; params?: {} }
    'articles.publish': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'articles.unpublish': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
  }
  PUT: {
    'auth.password.update': { paramsTuple?: []; params?: {} }
    'users.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'users.assign_roles': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'roles.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'roles.assign_menus': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'menus.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'articles.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
  }
  DELETE: {
    'users.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'roles.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'menus.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'articles.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
  }
}
declare module '@adonisjs/core/types/http' {
  export interface RoutesList extends ScannedRoutes {}
}
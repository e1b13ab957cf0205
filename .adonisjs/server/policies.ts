export const policies = {
  ArticlePolicy: () => import('#policies/article_policy'),
  DeptPolicy: () => import('#policies/dept_policy'),
  MenuPolicy: () => import('#policies/menu_policy'),
  RolePolicy: () => import('#policies/role_policy'),
  UserPolicy: () => import('#policies/user_policy'),
}


import factory from '@adonisjs/lucid/factories'
import Menu from '#models/menu'

/**
 * Menu nodes for tests. The default is a root directory; `page` and `button` need a parentId
 * merged in (a page under a directory, a button under a page).
 */
export const MenuFactory = factory
  .define(Menu, ({ faker }) => {
    const word = faker.string.alpha({ length: 8, casing: 'lower' })
    return {
      parentId: null,
      type: 'directory' as const,
      name: `Dir ${word}`,
      path: `/${word}`,
      component: null,
      icon: null,
      permission: null,
      sort: faker.number.int({ min: 10, max: 100 }),
      visible: true,
      status: 'enabled' as const,
    }
  })
  .state('page', (menu) => {
    menu.type = 'menu'
    menu.name = menu.name.replace('Dir', 'Page')
    menu.path = menu.path!.slice(1)
    menu.component = `test/${menu.path}/index`
  })
  .state('button', (menu) => {
    menu.type = 'button'
    menu.name = menu.name.replace('Dir', 'Button')
    menu.permission = `test:${menu.path!.slice(1)}:run`
    menu.path = null
  })
  .build()

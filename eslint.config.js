import { configApp } from '@adonisjs/eslint-config'

export default configApp(
  { ignores: ['.adonisjs/**', 'build/**', 'tmp/**', 'console/**'] },
  {
    // Tests read response bodies inline: `(await client.get(...)).body()` is the clearest form there.
    files: ['tests/**/*.ts', 'bench/**/*.ts'],
    rules: { '@unicorn/no-await-expression-member': 'off' },
  }
)

import { configApp } from '@adonisjs/eslint-config'
export default configApp({ ignores: ['.adonisjs/**', 'build/**', 'tmp/**'] })

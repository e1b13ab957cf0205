/*
| JavaScript entrypoint for ace commands: registers the TypeScript loader, then boots bin/console.ts.
| The build step overwrites this file.
*/
import '@poppinss/ts-exec'

await import('./bin/console.js')

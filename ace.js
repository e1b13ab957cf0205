/*
| JavaScript entrypoint for ace commands: registers the TypeScript loader, then boots bin/console.ts.
| The build step overwrites this file.
*/
// First: on an older Node, one line and exit 1 (before the loader, which needs Node 24).
import './bin/node_version.js'

await import('@poppinss/ts-exec')
await import('./bin/console.js')

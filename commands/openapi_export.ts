import { writeFile } from 'node:fs/promises'
import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

/**
 * node ace openapi:export [--output file]
 *
 * Writes the OpenAPI document without a running server (client generation in a front end's build,
 * a contract diff in review). The same builder as GET /api/openapi.json, so the two never differ.
 */
export default class OpenApiExport extends BaseCommand {
  static commandName = 'openapi:export'
  static description = 'Write the OpenAPI 3.1 document (stdout, or --output file)'
  static options: CommandOptions = { startApp: true }

  @flags.string({ description: 'File to write instead of stdout', alias: 'o' })
  declare output?: string

  async run() {
    // Ace does not preload the HTTP routes: load and commit them as the server does.
    const { default: router } = await import('@adonisjs/core/services/router')
    await import('#start/routes')
    router.commit()
    const { openApiJson } = await import('#openapi/document')
    const json = JSON.stringify(JSON.parse(await openApiJson()), null, 2) + '\n'
    if (!this.output) {
      process.stdout.write(json)
      return
    }
    await writeFile(this.output, json)
    this.logger.success(`OpenAPI document written to ${this.output}`)
  }
}

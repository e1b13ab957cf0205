import type { Kernel } from '@adonisjs/core/ace'

/**
 * Errors that are not answers of the API: the sheet reader's (app/core/xlsx_reader.ts), turned
 * into a 413 or 422 by the user import, and a refused destructive command, rendered by ace.
 */

/** A limit of SheetLimits was reached (`limit` names it); nothing past it was read. */
export class SheetLimitError extends Error {
  constructor(
    public limit: 'entries' | 'inflated' | 'ratio' | 'rows' | 'cell',
    public data: Record<string, string | number> = {}
  ) {
    super(`XLSX limit reached: ${limit}`)
  }
}

/** Not a readable workbook: not a ZIP, damaged, encrypted, a part missing or malformed XML. */
export class SheetUnreadableError extends Error {}

/** Rendered by the ace kernel as the message alone (no stack), with exit code 1. */
export class DestructiveCommandRefused extends Error {
  constructor(readonly commandName: string) {
    super(
      `"${commandName}" deletes data and NODE_ENV is production: refused. ` +
        `Take a backup, then run "node ace ${commandName} --force" if that is what you mean.`
    )
  }

  render(_error: unknown, kernel: Kernel) {
    kernel.ui.logger.logError(`${kernel.ui.colors.bgRed().white('  ERROR  ')} ${this.message}`)
  }
}

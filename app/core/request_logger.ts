import logger from '@adonisjs/core/services/logger'
import { Logger } from '@adonisjs/core/logger'
import { HttpContext, type Server } from '@adonisjs/core/http'

/*
| Every request's `ctx.logger` is the app logger's child bound to its request id. AdonisJS makes
| that child (pino's: bindings serialized, redaction set up) for every request, ~1.5 µs and a few
| objects, though most requests log nothing (the access log writes at info; production runs at
| warn). Here the child is made on the request's first log line instead: a Logger whose `pino`
| is the child, made when first read, with the same bindings. Whether a level is enabled is
| answered by the parent until then (a child starts at its parent's level). The framework has no
| option for it, so the server's createHttpContext (its public method, the one place a context
| is made) is replaced once at boot (start/kernel.ts), as the framework writes it but for the
| logger. tests/functional/request_logger.spec.ts holds the lines to the request id.
*/

type Pino = Logger['pino']

/** A Logger (its methods, through its prototype) whose pino child is made on first use. */
class RequestLogger {
  /** The parent's logger config (Logger's own methods read it). */
  config: unknown
  #parent: Logger
  #requestId: string | undefined
  #pino?: Pino

  constructor(parent: Logger, requestId: string | undefined) {
    this.config = (parent as unknown as { config: unknown }).config
    this.#parent = parent
    this.#requestId = requestId
  }

  get pino(): Pino {
    return (this.#pino ??= this.#parent.pino.child({ request_id: this.#requestId }))
  }

  isLevelEnabled(level: string) {
    return this.isEnabled && (this.#pino ?? this.#parent.pino).isLevelEnabled(level)
  }

  declare isEnabled: boolean
}
Object.setPrototypeOf(RequestLogger.prototype, Logger.prototype)

/** The request's logger: the app logger itself when disabled (as its `child` answers then). */
export function requestLogger(requestId: string | undefined): Logger {
  if (!logger.isEnabled) return logger
  return new RequestLogger(logger, requestId) as unknown as Logger
}

/** Contexts made as the framework makes them, with a request logger made on first use. */
export function deferRequestLoggers(server: Server) {
  server.createHttpContext = (request, response, resolver) =>
    new HttpContext(request, response, requestLogger(request.id()), resolver)
}

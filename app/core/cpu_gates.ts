import { availableParallelism } from 'node:os'
import env from '#start/env'
import { unavailable } from '#exceptions/api_exception'

/**
 * The CPU-heavy work an anonymous caller can start runs behind a bounded gate: at most
 * `concurrency` at once, at most `queueMax` waiting per priority, one more answers 503 +
 * Retry-After at once. Trusted callers (a valid device token, a signed-in session) wait in their
 * own queue, served before the anonymous one, so a flood cannot push the owner back by more than
 * the work already running (docs/front-door.md).
 */
export type Priority = 'trusted' | 'anonymous'

export class PriorityGate {
  #running = 0
  #queues: Record<Priority, (() => void)[]> = { trusted: [], anonymous: [] }

  constructor(
    public concurrency: number,
    public queueMax: number
  ) {}

  get load() {
    return {
      running: this.#running,
      trusted: this.#queues.trusted.length,
      anonymous: this.#queues.anonymous.length,
    }
  }

  /** Share of the anonymous capacity (running + waiting) in use, 0 to 1. */
  get fill() {
    return (this.#running + this.#queues.anonymous.length) / (this.concurrency + this.queueMax)
  }

  async run<T>(priority: Priority, work: () => Promise<T>): Promise<T> {
    if (this.#running >= this.concurrency) {
      const queue = this.#queues[priority]
      if (queue.length >= this.queueMax) throw unavailable(1)
      await new Promise<void>((resolve) => queue.push(resolve))
    } else {
      this.#running++
    }
    try {
      return await work()
    } finally {
      // The slot passes to the next waiter (trusted first), or frees.
      const next = this.#queues.trusted.shift() ?? this.#queues.anonymous.shift()
      if (next) next()
      else this.#running--
    }
  }
}

/** Password hashes (argon2id, ~0.2 s of a core each): by default one per core. */
export const hashGate = new PriorityGate(
  env.get('HASH_CONCURRENCY', availableParallelism()),
  env.get('HASH_QUEUE_MAX', 16)
)

/**
 * Slider drawing (~10 ms, mostly JavaScript on the event loop): one at a time, so a burst of
 * solved proofs of work waits (or is refused) instead of interleaving and stalling every request.
 */
export const drawGate = new PriorityGate(1, 16)

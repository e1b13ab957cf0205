import { availableParallelism } from 'node:os'
import env from '#start/env'
import { unavailable } from '#exceptions/api_exception'

/**
 * Password hashes (argon2id, ~0.2 s of a core each) run behind this gate: at most HASH_CONCURRENCY
 * at once (default: one per core), at most HASH_QUEUE_MAX waiting per priority, one more answers
 * 503 + Retry-After at once. Trusted callers (a valid device token, a signed-in session) wait in
 * their own queue, served before the anonymous one, so a flood of anonymous logins cannot push
 * the owner's login back by more than the hashes already running.
 */
export type HashPriority = 'trusted' | 'anonymous'

export class HashGate {
  #running = 0
  #queues: Record<HashPriority, (() => void)[]> = { trusted: [], anonymous: [] }

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

  async run<T>(priority: HashPriority, work: () => Promise<T>): Promise<T> {
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

export default new HashGate(
  env.get('HASH_CONCURRENCY', availableParallelism()),
  env.get('HASH_QUEUE_MAX', 16)
)

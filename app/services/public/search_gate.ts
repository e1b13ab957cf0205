import pLimit, { type LimitFunction } from 'p-limit'
import env from '#start/env'
import { unavailable } from '#exceptions/api_exception'
import { addressKey } from '#core/address_key'

/**
 * A bulkhead for keyword searches on this instance: at most `concurrency` run at once, at most
 * `queue` wait, and one past that answers 503 (E_UNAVAILABLE, Retry-After) at once.
 *
 * Why, next to the per-address throttle (start/limiter.ts): many addresses each under their
 * limit, or one address behind a trusted proxy, can still search as fast as the database answers.
 * Searches then take database CPU from the guard's one query on a small machine; capped here, a
 * flood of searches waits for its turn instead, and the rest of the API keeps its latency
 * (docs/performance.md, "Keyword searches beside /me"). Unfiltered pages and the detail never pass this gate.
 *
 * Fair share: one client address (its addressKey: an IPv6 client by its /64) holds at most
 * `perAddress` places, running and waiting together. Past that, that address alone gets the 503
 * while the others still queue, so one fast client cannot take the whole queue from bystanders.
 */
export class SearchGate {
  #limit: LimitFunction
  /** Places held (running + waiting) per address key; a key leaves the map at zero. */
  #held = new Map<string, number>()

  constructor(
    concurrency: number,
    public queue: number,
    public perAddress: number = defaultPerAddress(queue)
  ) {
    this.#limit = pLimit(concurrency)
  }

  get concurrency() {
    return this.#limit.concurrency
  }

  set concurrency(value: number) {
    this.#limit.concurrency = value
  }

  /** Searches running and waiting. */
  get load() {
    return { active: this.#limit.activeCount, waiting: this.#limit.pendingCount }
  }

  /** Places one client address holds, running and waiting (by its addressKey). */
  heldBy(ip: string) {
    return this.#held.get(addressKey(ip)) ?? 0
  }

  /**
   * Runs a search when a place is free. `ip` is the client address (request.ip()); without one
   * (internal callers) only the shared bounds apply.
   */
  run<T>(search: () => Promise<T>, ip?: string): Promise<T> {
    if (this.#limit.pendingCount >= this.queue) throw unavailable(1)
    if (ip === undefined) return this.#limit(search)

    const key = addressKey(ip)
    const held = this.#held.get(key) ?? 0
    if (held >= this.perAddress) throw unavailable(1)
    this.#held.set(key, held + 1)
    return this.#limit(search).finally(() => {
      const left = (this.#held.get(key) ?? 1) - 1
      if (left > 0) this.#held.set(key, left)
      else this.#held.delete(key)
    })
  }
}

/** The default share of one address: an eighth of the queue, at least 2. */
export function defaultPerAddress(queue: number) {
  return Math.max(2, Math.ceil(queue / 8))
}

const queue = env.get('SEARCH_QUEUE_MAX', 64)
export default new SearchGate(
  env.get('SEARCH_CONCURRENCY', 2),
  queue,
  env.get('SEARCH_QUEUE_PER_ADDRESS', defaultPerAddress(queue))
)

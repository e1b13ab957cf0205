import pLimit, { type LimitFunction } from 'p-limit'
import env from '#start/env'
import { unavailable } from '#exceptions/api_exception'

/**
 * A bulkhead for keyword searches on this instance: at most `concurrency` run at once, at most
 * `queue` wait, and one past that answers 503 (E_UNAVAILABLE, Retry-After) at once.
 *
 * Why, next to the per-address throttle (start/limiter.ts): many addresses each under their
 * limit, or one address behind a trusted proxy, can still search as fast as the database answers.
 * Searches then take database CPU from the guard's one query on a small machine; capped here, a
 * flood of searches waits for its turn instead, and the rest of the API keeps its latency
 * (README, "Benchmark"). Unfiltered pages and the detail never pass this gate.
 */
export class SearchGate {
  #limit: LimitFunction

  constructor(
    concurrency: number,
    public queue: number
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

  run<T>(search: () => Promise<T>): Promise<T> {
    if (this.#limit.pendingCount >= this.queue) throw unavailable(1)
    return this.#limit(search)
  }
}

export default new SearchGate(env.get('SEARCH_CONCURRENCY', 2), env.get('SEARCH_QUEUE_MAX', 64))

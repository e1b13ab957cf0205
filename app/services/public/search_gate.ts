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
 * The capacity is shared per client address (its addressKey: an IPv6 client by its /64):
 * - one address holds at most `perAddress` places, running and waiting together; past that,
 *   that address alone gets the 503;
 * - a full queue does not refuse a lighter address: the heaviest address (most waiting, then the
 *   most searches lately, `demand`) gives up its oldest waiter (503) to the newcomer. Only when
 *   no address would be heavier than the newcomer after it joins is the newcomer refused, so a
 *   bystander's search gets in while any number of addresses flood, and stays in;
 * - waiters are served round robin by address, so a bystander waits for one turn per address
 *   waiting, not behind the whole queue.
 */
type Waiter = { start: () => void; refuse: (error: unknown) => void }
type Place = { held: number; waiters: Waiter[] }

/** Internal callers (no request address): only the shared bounds apply. */
const INTERNAL = ''
/** Half-life of an address's demand: searches of the last tens of seconds weigh. */
const DEMAND_HALF_LIFE_MS = 10_000
/** Addresses whose demand is remembered (the least recently seen is forgotten). */
const DEMAND_KEYS = 10_000

export class SearchGate {
  #concurrency: number
  #running = 0
  #waiting = 0
  /** Places held (running + waiting) and waiters per address key; a key leaves at zero. */
  #places = new Map<string, Place>()
  /** Keys with waiters, in serving order (round robin: a served key moves to the end). */
  #turns = new Set<string>()
  /** Per key: searches asked for, halved every DEMAND_HALF_LIFE_MS, and when last counted. */
  #demand = new Map<string, { value: number; at: number }>()
  /** Counters since start: admitted at once or queued, refused at the door, evicted from the queue. */
  stats = { admitted: 0, refused: 0, evicted: 0 }

  constructor(
    concurrency: number,
    public queue: number,
    public perAddress: number = defaultPerAddress(queue)
  ) {
    this.#concurrency = concurrency
  }

  get concurrency() {
    return this.#concurrency
  }

  set concurrency(value: number) {
    this.#concurrency = value
    this.#next()
  }

  /** Searches running and waiting. */
  get load() {
    return { active: this.#running, waiting: this.#waiting }
  }

  /** Places one client address holds, running and waiting (by its addressKey). */
  heldBy(ip: string) {
    return this.#places.get(addressKey(ip))?.held ?? 0
  }

  /**
   * Runs a search when a place is free. `ip` is the client address (request.ip()); without one
   * (internal callers) only the shared bounds apply.
   */
  run<T>(search: () => Promise<T>, ip?: string): Promise<T> {
    const key = ip === undefined ? INTERNAL : addressKey(ip)
    const demand = key === INTERNAL ? 0 : this.#count(key, Date.now())
    const place = this.#places.get(key)
    if (key !== INTERNAL && (place?.held ?? 0) >= this.perAddress) return this.#refuse()

    if (this.#running < this.#concurrency && this.#waiting === 0) {
      this.#take(key).held++
      this.#running++
      this.stats.admitted++
      return this.#execute(key, search)
    }
    if (this.#waiting >= this.queue && !this.#evictFor(key, demand)) return this.#refuse()

    const entry = this.#take(key)
    entry.held++
    this.#waiting++
    this.stats.admitted++
    const started = new Promise<void>((start, refuse) => entry.waiters.push({ start, refuse }))
    this.#turns.add(key)
    return started.then(() => this.#execute(key, search))
  }

  async #execute<T>(key: string, search: () => Promise<T>): Promise<T> {
    try {
      return await search()
    } finally {
      this.#running--
      this.#release(key)
      this.#next()
    }
  }

  /** Starts waiters while places run free, one per address in turn. */
  #next() {
    while (this.#running < this.#concurrency && this.#waiting > 0) {
      const key = this.#turns.values().next().value!
      const place = this.#places.get(key)!
      const waiter = place.waiters.shift()!
      this.#turns.delete(key)
      if (place.waiters.length > 0) this.#turns.add(key)
      this.#waiting--
      this.#running++
      waiter.start()
    }
  }

  /**
   * Makes room for `key` in a full queue: the heaviest address gives up its oldest waiter when it
   * would still outweigh `key` after `key` joins (more waiting; as many, and more demand).
   */
  #evictFor(key: string, demand: number) {
    const now = Date.now()
    let victim: string | undefined
    let victimWaiting = 0
    let victimDemand = 0
    for (const candidate of this.#turns) {
      const waiting = this.#places.get(candidate)!.waiters.length
      if (waiting < victimWaiting) continue
      const candidateDemand = this.#demandOf(candidate, now)
      if (waiting === victimWaiting && candidateDemand <= victimDemand) continue
      victim = candidate
      victimWaiting = waiting
      victimDemand = candidateDemand
    }
    const joined = (this.#places.get(key)?.waiters.length ?? 0) + 1
    const outweighs = victimWaiting > joined || (victimWaiting === joined && victimDemand > demand)
    if (victim === undefined || victim === key || !outweighs) return false

    const place = this.#places.get(victim)!
    const waiter = place.waiters.shift()!
    if (place.waiters.length === 0) this.#turns.delete(victim)
    this.#waiting--
    this.#release(victim)
    this.stats.evicted++
    waiter.refuse(unavailable(1))
    return true
  }

  #take(key: string) {
    let place = this.#places.get(key)
    if (!place) this.#places.set(key, (place = { held: 0, waiters: [] }))
    return place
  }

  #release(key: string) {
    const place = this.#places.get(key)!
    if (--place.held === 0) this.#places.delete(key)
  }

  #refuse(): never {
    this.stats.refused++
    throw unavailable(1)
  }

  /** Counts one search of `key` and returns its demand now. */
  #count(key: string, now: number) {
    const value = this.#demandOf(key, now) + 1
    this.#demand.delete(key)
    this.#demand.set(key, { value, at: now })
    if (this.#demand.size > DEMAND_KEYS) {
      this.#demand.delete(this.#demand.keys().next().value!)
    }
    return value
  }

  #demandOf(key: string, now: number) {
    const entry = this.#demand.get(key)
    if (!entry) return 0
    return entry.value * 2 ** ((entry.at - now) / DEMAND_HALF_LIFE_MS)
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

import User from '#models/user'
import adminAuthConfig from '#config/admin_auth'
import { cache } from '#core/cache'
import type { Requirement } from '#auth/account_requirements'

/**
 * What the guard decides from an account row (enabled, tokenVersion, pending requirements),
 * derived through the User model once per row state instead of hydrating a model (luxon dates
 * and all) on every request. A state is keyed by every column of the model as read, plus the
 * password max age it was derived with (a runtime setting), so any change of the row, raw SQL
 * included, gives a new state on the next request (accountStateFor compares column by column).
 * Controllers that need the model still get a fresh one per request (JwtGuard.user, hydrated on
 * first use).
 */
export class AccountState {
  readonly id: number
  /** The sign-in name (what an audit row names the actor by). */
  readonly account: string
  readonly isEnabled: boolean
  readonly tokenVersion: number
  readonly twoFactorEnabled: boolean
  readonly hasSecondFactor: boolean
  /** The account's department: its snapshot's data scope depends on it (dept, dept_and_children). */
  readonly deptId: number | null
  readonly #mustChangePassword: boolean
  /** passwordExpiresAt in epoch ms, null without one. */
  readonly #passwordExpiresAt: number | null
  /** The `/me` body last built on this state (app/controllers/auth/me_controller.ts). */
  meBody?: { snapshot: object; pending: Requirement | null; bytes: Buffer }

  constructor(
    /** The column values it was derived from, in userColumnNames() order. */
    readonly values: unknown[],
    readonly maxAgeDays: number,
    user: User
  ) {
    this.id = user.id
    this.account = user.account
    this.isEnabled = user.isEnabled
    this.tokenVersion = user.tokenVersion
    this.twoFactorEnabled = user.twoFactorEnabled
    this.hasSecondFactor = user.hasSecondFactor
    this.deptId = user.deptId ?? null
    this.#mustChangePassword = user.mustChangePassword
    this.#passwordExpiresAt = user.passwordExpiresAt?.toMillis() ?? null
  }

  /** As User.passwordChangeRequired: the instant is compared on every call. */
  get passwordChangeRequired() {
    return (
      this.#mustChangePassword ||
      (this.#passwordExpiresAt !== null && this.#passwordExpiresAt <= Date.now())
    )
  }
}

let columns: string[] | undefined
/** The model's columns as the database names them (what the guard selects). */
export const userColumnNames = () =>
  (columns ??= [...User.$columnsDefinitions.values()].map((column) => column.columnName))

const states = cache<number, AccountState>('account-states', { max: 10_000 })

/** A column value as read now against the one a state was derived from (pg gives Dates). */
const sameValue = (was: unknown, now: unknown) =>
  was === now || (was instanceof Date && now instanceof Date && was.getTime() === now.getTime())

/**
 * The state of the account in `row` (a row holding every column of userColumnNames()): the
 * cached one while every column is unchanged, else derived from a model hydrated from the row.
 */
export function accountStateFor(row: Record<string, unknown>): AccountState {
  const names = userColumnNames()
  const maxAgeDays = adminAuthConfig.passwords.maxAgeDays
  const id = Number(row.id)
  const hit = states.get(id)
  if (
    hit &&
    hit.maxAgeDays === maxAgeDays &&
    names.every((name, i) => sameValue(hit.values[i], row[name]))
  ) {
    return hit
  }
  const values = names.map((name) => row[name])
  const state = new AccountState(values, maxAgeDays, User.$createFromAdapterResult(row)!)
  states.set(id, state)
  return state
}

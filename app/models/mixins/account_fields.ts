import type { DateTime } from 'luxon'
import adminAuthConfig from '#config/admin_auth'

const DAY_MS = 86_400_000

/**
 * An instant as an account holds it: a luxon DateTime (the model), or its ISO text in UTC (the
 * users list's plain rows, app/services/admin/user_list.ts, which skip luxon per date). Days in
 * UTC are 24 h long, so the text's sum is the instant luxon's `plus` gives, written as it would be.
 */
const plusDays = (at: DateTime | string, days: number) =>
  typeof at === 'string'
    ? new Date(Date.parse(at) + days * DAY_MS).toISOString()
    : at.plus({ days })
const millisOf = (at: DateTime | string) =>
  typeof at === 'string' ? Date.parse(at) : at.toMillis()

/**
 * The columns (model properties) each derived field below reads: the users list reads only the
 * columns its answer needs (app/services/admin/user_list.ts). tests/unit/account_fields.spec.ts
 * holds each getter to its list.
 */
export const DERIVED_FROM = {
  emailVerified: ['emailVerifiedAt', 'email'],
  twoFactorEnabled: ['twoFactorConfirmedAt'],
  lastSignIn: ['previousLoginAt', 'previousLoginIp'],
  failedSinceLastSignIn: ['failedBeforeLogin', 'failedLogins'],
  passwordExpiresAt: ['passwordChangedAt', 'createdAt'],
  passwordChangeRequired: ['mustChangePassword', 'passwordChangedAt', 'createdAt'],
  avatarUrl: ['avatarEtag', 'id'],
} as const

/**
 * An account's derived fields, read from its columns: declared once, for the User model and for
 * the plain rows of the admin users list (app/services/admin/user_list.ts), which are read
 * without the model's hydration. The columns are declared here as the getters read them; the
 * model maps them (app/models/user.ts).
 */
export function withAccountFields<Base extends new (...args: any[]) => object>(superclass: Base) {
  class AccountFields extends superclass {
    declare id: number
    declare email: string | null
    declare emailVerifiedAt: DateTime | null
    declare twoFactorConfirmedAt: DateTime | null
    declare previousLoginAt: DateTime | null
    declare previousLoginIp: string | null
    declare failedLogins: number
    declare failedBeforeLogin: number
    declare mustChangePassword: boolean
    declare passwordChangedAt: DateTime | null
    declare createdAt: DateTime
    declare avatarEtag: string | null

    get emailVerified() {
      return Boolean(this.emailVerifiedAt && this.email)
    }

    get twoFactorEnabled() {
      return Boolean(this.twoFactorConfirmedAt)
    }

    /** The owner's previous sign-in, shown after the next one (null before a second sign-in). */
    get lastSignIn(): { at: DateTime; ip: string | null } | null {
      return this.previousLoginAt ? { at: this.previousLoginAt, ip: this.previousLoginIp } : null
    }

    /** Failed password checks since the previous sign-in (before and after the current one). */
    get failedSinceLastSignIn(): number {
      return Number(this.failedBeforeLogin ?? 0) + Number(this.failedLogins ?? 0)
    }

    /** When the password runs out (PASSWORD_MAX_AGE_DAYS after it was set), null without a max age. */
    get passwordExpiresAt(): DateTime | null {
      const days = adminAuthConfig.passwords.maxAgeDays
      const since = this.passwordChangedAt ?? this.createdAt
      // A list row's text gives text (typed as the model's: the transformer only writes it out).
      return days > 0 && since ? (plusDays(since, days) as DateTime) : null
    }

    /** The password must be changed before anything else: chosen by someone else, or expired. */
    get passwordChangeRequired(): boolean {
      if (this.mustChangePassword) return true
      const expiresAt = this.passwordExpiresAt
      return expiresAt !== null && millisOf(expiresAt) <= Date.now()
    }

    /** The stable URL of the own avatar; `v` changes with the image (cache busting). */
    get avatarUrl(): string | null {
      return this.avatarEtag ? `/api/avatars/${this.id}?v=${this.avatarEtag}` : null
    }
  }
  return AccountFields
}

import type User from '#models/user'
import type { AccessSnapshot } from '#auth/access_snapshot'
import { requirementPending } from '#exceptions/api_exception'
import adminAuthConfig from '#config/admin_auth'

/**
 * What an account must do before anything else: change a password an administrator set (or that
 * expired), enrol the second factor AUTH_REQUIRE_2FA demands. The one place both are decided;
 * only routes declared with `middleware.auth({ pending: [...] })` accept a pending account
 * (start/routes/auth.ts: /me, logout, own sessions and the routes that settle the requirement).
 */
/** The model, or the guard's account state (app/auth/account_state.ts). */
type Account = Pick<User, 'passwordChangeRequired' | 'hasSecondFactor'>

export type Requirement = 'E_PASSWORD_CHANGE_REQUIRED' | 'E_2FA_SETUP_REQUIRED'

/** Each requirement's message key (resources/lang/<locale>/errors.json). */
const MESSAGES: Record<Requirement, string> = {
  E_PASSWORD_CHANGE_REQUIRED: 'passwordChangeRequired',
  E_2FA_SETUP_REQUIRED: 'twoFactorSetupRequired',
}

/** Every requirement: a route accepting all of them never answers the gate's 403. */
export const REQUIREMENTS = Object.keys(MESSAGES) as Requirement[]

/** The first thing the account must do, or null. Checks are added in priority order. */
export function pendingRequirement(
  user: Account,
  access?: Pick<AccessSnapshot, 'isSuperAdmin'>
): Requirement | null {
  // Chosen by an administrator, a command or the seeder, or older than PASSWORD_MAX_AGE_DAYS.
  if (user.passwordChangeRequired) return 'E_PASSWORD_CHANGE_REQUIRED'
  // AUTH_REQUIRE_2FA: everyone, or the holders of the enabled super_admin role (their snapshot).
  // A TOTP secret or a passkey meets it.
  const secondFactorRequired = adminAuthConfig.twoFactor.required
  if (
    !user.hasSecondFactor &&
    (secondFactorRequired === 'all' ||
      (secondFactorRequired === 'super_admin' && access?.isSuperAdmin))
  ) {
    return 'E_2FA_SETUP_REQUIRED'
  }
  return null
}

/** 403 with the requirement's code unless the route accepts it. */
export function assertSettled(
  user: Account,
  accepted: readonly Requirement[] = [],
  access?: Pick<AccessSnapshot, 'isSuperAdmin'>
) {
  const pending = pendingRequirement(user, access)
  if (pending && !accepted.includes(pending)) {
    throw requirementPending(pending, MESSAGES[pending])
  }
}

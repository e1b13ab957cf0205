import type User from '#models/user'
import ApiToken from '#models/api_token'
import { generateApiToken } from '#auth/api_tokens'

/**
 * An API token of `user` carrying `codes`, written straight to the table (as POST /api/auth/tokens
 * would store it), valid for a day unless `row` says otherwise. Returns the token text and its row.
 */
export async function apiTokenFor(
  user: User,
  codes: readonly string[],
  row: Partial<Pick<ApiToken, 'expiresAt' | 'tokenVersion' | 'lastUsedAt' | 'name'>> = {}
) {
  const { token, tokenHash, hint } = generateApiToken()
  const now = Date.now()
  const stored = await ApiToken.create({
    userId: user.id,
    name: 'ci',
    tokenHash,
    hint,
    permissions: [...codes],
    tokenVersion: user.tokenVersion,
    createdAt: now,
    expiresAt: now + 86_400_000,
    lastUsedAt: null,
    lastUsedIp: null,
    ...row,
  })
  return { token, row: stored }
}

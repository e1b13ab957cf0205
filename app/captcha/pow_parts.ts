import type { Challenge, ChallengeParameters } from 'altcha-lib/types'

/**
 * Part i of a proof-of-work challenge (proof_of_work.ts): the altcha challenge whose nonce is the
 * challenge's nonce followed by i as 4 hex digits, so no part's counter solves another part or
 * another challenge. Free of the app's config: the reference client and benchmarks import it.
 */
export function partChallenge(parameters: ChallengeParameters, part: number): Challenge {
  return {
    parameters: { ...parameters, nonce: parameters.nonce + part.toString(16).padStart(4, '0') },
  }
}

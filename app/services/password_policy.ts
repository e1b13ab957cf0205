import { FieldError } from '#exceptions/api_exception'
import { PASSWORD_MAX, PASSWORD_MIN } from '#resources/users'

/** The lowest zxcvbn score accepted (0..4; 3 = "safely unguessable", about 10^8 guesses or more). */
export const PASSWORD_MIN_SCORE = 3
/** A common word with at most this many digits and symbols around it is still a common password. */
const MAX_DECORATION = 6
/** Shorter account names are not searched for inside the password (2 letters occur everywhere). */
const MIN_ACCOUNT_SEARCHED = 3

type Result = import('@zxcvbn-ts/core').ZxcvbnResult
type Checker = {
  zxcvbn: { check(password: string, userInputs?: (string | number)[]): Result }
  commonWords: Set<string>
}

/**
 * zxcvbn-ts and its common dictionaries (@zxcvbn-ts/language-common: 49k breached passwords and
 * the 7.8k diceware words) are loaded on the first check and kept: nothing is loaded by a process
 * that never sets a password, and the load runs once however many checks wait for it.
 */
let checker: Promise<Checker> | undefined

async function loadChecker(): Promise<Checker> {
  const [{ ZxcvbnFactory }, common] = await Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
  ])
  const zxcvbn = new ZxcvbnFactory({
    dictionary: common.dictionary,
    graphs: common.adjacencyGraphs,
    // Levenshtein matching against every dictionary word costs 30-150 ms a check; the l33t,
    // reversed and capitalised variants are matched without it.
    useLevenshteinDistance: false,
  })
  const commonWords = new Set(
    [...common.dictionary['passwords-common'], ...common.dictionary['diceware-common']].map(
      (word) => word.toLowerCase()
    )
  )
  return { zxcvbn, commonWords }
}

function getChecker() {
  checker ??= loadChecker().catch((error) => {
    checker = undefined
    throw error
  })
  return checker
}

/** Loads the dictionaries now (a warm-up), so the first password check does not pay for it. */
export async function preloadPasswordPolicy() {
  await getChecker()
}

/** The words of an account zxcvbn should treat as known to the attacker: the name and its parts. */
function accountInputs(account: string) {
  const lowered = account.toLowerCase()
  const parts = lowered.split(/[^a-z0-9]+/).filter((part) => part.length >= MIN_ACCOUNT_SEARCHED)
  return [...new Set([lowered, ...parts])]
}

function containsAccount(lowered: string, account: string) {
  const name = account.toLowerCase()
  return name.length >= MIN_ACCOUNT_SEARCHED ? lowered.includes(name) : lowered === name
}

/**
 * A well-known password: the whole password is one dictionary word (capitalised, l33t or reversed
 * variants included, as zxcvbn matched it), or one common word with a few digits and symbols
 * around it ("Admin@2026", "Welcome123!").
 */
function isCommon(commonWords: Set<string>, password: string, result: Result) {
  const lowered = password.toLowerCase()
  if (commonWords.has(lowered)) return true
  const [only] = result.sequence
  if (
    result.sequence.length === 1 &&
    only.pattern === 'dictionary' &&
    (only as { dictionaryName?: string }).dictionaryName !== 'userInputs'
  ) {
    return true
  }
  const decorated = /^[^a-z]*([a-z]+)[^a-z]*$/.exec(lowered)
  return (
    decorated !== null &&
    lowered.length - decorated[1].length <= MAX_DECORATION &&
    commonWords.has(decorated[1])
  )
}

/**
 * The password policy, the one check of every path that sets a password (admin create and reset,
 * own change, `node ace user:create` / `user:reset-password`, the seeder's ADMIN_PASSWORD):
 * 8..128 characters (the whole string is hashed, nothing is truncated), not containing the account
 * name (any case), not a common or breached password (zxcvbn-ts common dictionaries), and a
 * zxcvbn score of at least PASSWORD_MIN_SCORE with the account as a known user input.
 * Throws a 422 FieldError naming `field`, its message says which rule refused it.
 */
export async function assertPasswordPolicy(password: string, account: string, field = 'password') {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw new FieldError(field, 'passwordLength', 'length', {
      min: PASSWORD_MIN,
      max: PASSWORD_MAX,
    })
  }
  const lowered = password.toLowerCase()
  if (containsAccount(lowered, account)) {
    throw new FieldError(field, 'passwordContainAccountName', 'notAccount')
  }
  const loaded = await getChecker()
  const result = loaded.zxcvbn.check(password, accountInputs(account))
  if (isCommon(loaded.commonWords, password, result)) {
    throw new FieldError(field, 'passwordCommonBreachedPassword', 'notCommon')
  }
  if (result.score < PASSWORD_MIN_SCORE) {
    throw new FieldError(field, 'passwordTooEasy', 'strength', {
      score: result.score,
      min: PASSWORD_MIN_SCORE,
    })
  }
}

/// <reference lib="webworker" />
import { solveChallenge } from 'altcha-lib/v1'

/**
 * Solves the captcha's proof of work off the main thread, so the drag stays smooth: altcha-lib's
 * own solver (the server verifies with the same library), SHA-256 through WebCrypto.
 */
self.onmessage = async (event: MessageEvent) => {
  const { challenge, salt, algorithm, maxnumber } = event.data
  const solution = await solveChallenge(challenge, salt, algorithm, maxnumber).promise
  self.postMessage(solution ? solution.number : null)
}

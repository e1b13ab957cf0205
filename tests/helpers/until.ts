/**
 * Waits until `check` holds (a check that throws counts as not yet), polling every `everyMs`;
 * throws after `timeoutMs`. For tests that wait on what they see instead of on a clock.
 */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  { timeoutMs = 10_000, everyMs = 5 } = {}
) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
  throw new Error(`timed out waiting for ${what}`)
}

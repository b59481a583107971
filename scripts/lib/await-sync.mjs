// Waits for the queued platform syncs a sync cron started: the cron only queues one message per
// platform, and each is synced in its own invocation a moment later.

/** Resolves once every enabled platform of GET /platforms was attempted at or after `since`. */
export async function awaitPlatformSyncs(base, since, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs
  for (let poll = 0; ; poll++) {
    // A query the route ignores, so that no cached copy of the list answers.
    const res = await fetch(`${base}/platforms?poll=${poll}`)
    if (res.ok) {
      const platforms = await res.json()
      const waiting = platforms.filter(
        (p) => p.enabled && !(p.lastAttempt && Date.parse(p.lastAttempt) >= since),
      )
      if (waiting.length === 0) return platforms
      if (Date.now() > deadline) {
        throw new Error(`platforms not synced in time: ${waiting.map((p) => p.id).join(', ')}`)
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

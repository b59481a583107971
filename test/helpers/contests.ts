// Builds catalogue state through the app's own write functions.
import { env } from 'cloudflare:test'
import { bumpCatalogueVersion } from '../../src/contests/catalogue-version.ts'
import type { ContestInput } from '../../src/contests/contest-input.ts'
import { insertContests } from '../../src/contests/writes.ts'
import { createDb } from '../../src/db/client.ts'
import { HOUR_MS } from '../../src/lib/time.ts'

let seq = 0

/** A valid contest starting `startsInHours` from `now`, with any field overridden. */
export function contest(startsInHours: number, over: Partial<ContestInput> = {}, now = Date.now()) {
  seq++
  const startTime = now + startsInHours * HOUR_MS
  return {
    platform: 'codeforces',
    platformId: `t${seq}`,
    name: `Codeforces Round ${seq}`,
    type: 'CF',
    startTime,
    endTime: startTime + 2 * HOUR_MS,
    ...over,
  } satisfies ContestInput as ContestInput
}

export async function addContests(inputs: ContestInput[], now = Date.now()) {
  const rows = await insertContests(createDb(env.DB), inputs, now)
  await bumpCatalogueVersion(env.KV)
  return rows
}

/** Empties the catalogue between tests; the version bump keeps cached answers from leaking. */
export async function clearContests() {
  await env.DB.prepare('DELETE FROM contests').run()
  await bumpCatalogueVersion(env.KV)
}

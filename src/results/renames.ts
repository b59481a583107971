// Following the renames a judge tells (Codeforces lets an account change its handle once a year;
// user.info then answers under the new one). Now and then the linked handles of such a judge are
// walked, a batch a request: asked by their exact names; the first one the judge does not know
// under that name is looked up as a former handle, and its links follow the new one (proof and
// stored results kept). Every request takes a token of the judge's pace first, the same bucket
// the result checks use. Where the walk stopped is kept in KV, so each run goes on from there.
import type { Db } from '../db/client.ts'
import { log } from '../lib/log.ts'
import type { HandleRenames, ResultsRequest } from '../platforms/results.ts'
import type { KeyValueStore } from '../ports/key-value.ts'
import type { Pace } from './consumer.ts'
import { applyRenames, handleKey, type Rename } from './handles.ts'
import { linkedHandles } from './store.ts'

/** Requests of one run at most: a batch, and the former handles looked up in it. */
export const RENAME_REQUESTS_PER_RUN = 10

/** KV: the last handle key a walk of the platform asked (absent: from the start). */
export const renameCursorKey = (platform: string) => `results:renames:${platform}`

export interface RenameDeps {
  db: Db
  kv: KeyValueStore
  renames: HandleRenames
  request: ResultsRequest
  /** A token of the judge's pace; refused: when it is back. */
  pace: () => Promise<Pace>
  /** Waits for a token that is back within a few seconds (setTimeout). */
  wait?: (ms: number) => Promise<void>
}

export interface RenameRun {
  asked: number
  /** Handles the judge spells otherwise now (renamed, or another letter case). */
  renamed: number
  /** Handles the judge knows under no name: left as they are. */
  gone: number
  requests: number
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Longest a run waits for a token before it stops for the next run. */
const MAX_WAIT_MS = 5_000

/**
 * One run of the walk over `platform`'s linked handles (own proven ones and friends'): one batch
 * from where the last run stopped, the renames found applied in one D1 batch. A batch the run
 * could not finish (the pace, the requests' bound, a failure) is asked again next run.
 */
export async function followRenames(
  deps: RenameDeps,
  platform: string,
  now: number,
): Promise<RenameRun> {
  const run: RenameRun = { asked: 0, renamed: 0, gone: 0, requests: 0 }
  const after = (await deps.kv.get(renameCursorKey(platform))) ?? ''
  const batch = await linkedHandles(deps.db, platform, after, deps.renames.batch)
  if (batch.length === 0) {
    if (after !== '') await deps.kv.delete(renameCursorKey(platform))
    return run
  }
  const take = async () => {
    if (run.requests >= RENAME_REQUESTS_PER_RUN) return false
    let paced = await deps.pace()
    if (!paced.allowed && paced.retryAt - deps.request.now <= MAX_WAIT_MS) {
      await (deps.wait ?? sleep)(Math.max(0, paced.retryAt - deps.request.now))
      paced = await deps.pace()
    }
    if (paced.allowed) run.requests++
    return paced.allowed
  }
  const renames: Rename[] = []
  let remaining = batch
  try {
    while (remaining.length > 0 && (await take())) {
      const answer = await deps.renames.exact(
        deps.request,
        remaining.map((h) => h.handle),
      )
      if ('found' in answer) {
        // Every answered handle is one asked (matched by key, whatever the order): one whose
        // letter case changed takes the judge's spelling.
        const spelled = new Map(answer.found.map((h) => [handleKey(h), h]))
        for (const h of remaining) {
          const spelling = spelled.get(h.handleKey)
          if (spelling !== undefined && spelling !== h.handle) {
            renames.push({ platform, oldKey: h.handleKey, handle: spelling })
          }
        }
        remaining = []
        break
      }
      const key = handleKey(answer.missing)
      const former = remaining.find((h) => h.handleKey === key)
      if (!former || !(await take())) break
      remaining = remaining.filter((h) => h !== former)
      const current = await deps.renames.current(deps.request, former.handle)
      if (current === undefined) run.gone++
      else if (current !== former.handle) {
        renames.push({ platform, oldKey: former.handleKey, handle: current })
      }
    }
  } catch (error) {
    log.with({ job: 'results' }).warn('handle-renames-failed', { platform, error })
  }
  await applyRenames(deps.db, renames, now)
  run.renamed = renames.length
  if (remaining.length === 0) {
    run.asked = batch.length
    const done = batch.length < deps.renames.batch
    if (done) await deps.kv.delete(renameCursorKey(platform))
    else await deps.kv.put(renameCursorKey(platform), batch[batch.length - 1].handleKey)
  }
  return run
}

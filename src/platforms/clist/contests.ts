// clist.by entries of one platform turned into its contests through the platform's clist mapping,
// so that a contest stored from clist and later from the platform's own source is the same row.
import type { SourceContest } from '../contest.ts'
import type { ClistContest, PlatformModule } from '../define.ts'
import { ResultCollector, type AdapterResult } from '../source.ts'

/**
 * The running and upcoming contests among `entries`. Entries the mapping does not recognise
 * (not a contest page of the platform) count as unsupported; ended ones are left out uncounted.
 */
export function clistContests<P extends string, T extends string>(
  module: PlatformModule<P, T>,
  entries: readonly ClistContest[],
  now: number,
): AdapterResult<SourceContest<P, T>> {
  const mapping = module.clist
  if (!mapping) throw new Error(`${module.id} has no clist mapping`)
  const out = new ResultCollector<SourceContest<P, T>>(now)
  for (const entry of entries) {
    if (entry.endTime <= now) continue
    const mapped = mapping.contest(entry)
    if (!mapped) {
      out.markUnsupported()
      continue
    }
    out.keep({
      platform: module.id,
      platformId: mapped.platformId,
      name: entry.event.trim(),
      type: mapped.type,
      startTime: entry.startTime,
      endTime: entry.endTime,
      // A few old resources are listed with http:// links; the platform's list stands in for them.
      websiteUrl:
        mapped.websiteUrl ?? (entry.href.startsWith('https://') ? entry.href : module.contestsUrl),
      platformMetadata: { source: 'clist', clistId: entry.id },
    })
  }
  return out.result()
}

// A digest of the fields a sync brings, so an unchanged upstream contest costs no write.
import { cyrb53 } from '../lib/hash.ts'
import type { ContestInput } from './contest-input.ts'

/**
 * `volatileKeys` are platformMetadata keys that change on every fetch of an unchanged contest
 * (e.g. a countdown); they are left out, or every sync would rewrite every row.
 */
export function contestSyncHash(input: ContestInput, volatileKeys: readonly string[] = []): string {
  const metadata = input.platformMetadata
    ? Object.fromEntries(
        Object.entries(input.platformMetadata).filter(([key]) => !volatileKeys.includes(key)),
      )
    : null
  return cyrb53(
    JSON.stringify([
      input.name,
      input.type,
      input.startTime,
      input.endTime,
      input.description ?? null,
      input.websiteUrl ?? null,
      input.registrationUrl ?? null,
      input.difficulty ?? null,
      input.participantCount ?? null,
      input.problemCount ?? null,
      metadata,
    ]),
  ).toString(36)
}

/**
 * The sync_hash of a contest an admin wrote, which no source listed: never a digest (those are
 * base-36 digits), so a sync never takes the row for unchanged, never cancels it for missing from
 * its list, and never counts it when judging whether a source's answer shrank. A source that later
 * lists the same platform id takes the row over (its digest replaces this).
 */
export const ADMIN_ENTRY = 'admin:'

/** Whether a row's sync_hash says a source wrote it (a digest; not cancelled, not an admin's). */
export function writtenBySource(syncHash: string | null): boolean {
  return syncHash !== null && syncHash !== ADMIN_ENTRY
}

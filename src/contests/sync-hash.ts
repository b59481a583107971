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

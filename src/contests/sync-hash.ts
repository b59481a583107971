// A digest of the fields a sync brings, so an unchanged upstream contest costs no write.
import type { ContestInput } from './contest-input.ts'

/** cyrb53: a fast 53-bit string hash; change detection needs no cryptographic strength. */
function cyrb53(text: string): string {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ ch, 2654435761)
    h2 = Math.imul(h2 ^ ch, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)
}

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
  )
}

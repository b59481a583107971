// A contest as a platform or an admin describes it: the input of every catalogue write, and the
// cleaning every write applies to it first.
import type { SourceContest } from '../platforms/contest.ts'
import type { ContestType, Platform } from '../platforms/registry.ts'
import { singleLine, singleLineDeep } from '../lib/plain-text.ts'

export type ContestInput = SourceContest<Platform, ContestType>

// An optional text that cleaning empties is left out, as if it had never been given.
const optional = (text: string | undefined) =>
  text === undefined ? undefined : singleLine(text) || undefined

/**
 * `input` with every text it carries on one line, free of control characters: whatever wrote it (a
 * source, clist, an admin), a stored name or description can never break a line of a calendar file,
 * a header or a log. The description too: nothing shows its line breaks, and a feed or a message
 * that did would have to tell them apart from injected ones (docs/decisions.md, D27).
 */
export function cleanContestInput(input: ContestInput): ContestInput {
  return {
    ...input,
    platformId: singleLine(input.platformId),
    name: singleLine(input.name),
    type: singleLine(input.type) as ContestType,
    description: optional(input.description),
    websiteUrl: optional(input.websiteUrl),
    registrationUrl: optional(input.registrationUrl),
    ...(input.platformMetadata && {
      platformMetadata: singleLineDeep(input.platformMetadata) as Record<string, unknown>,
    }),
  }
}

// What the feeds take from the notification feature, a sibling they may not import: the app passes
// the link, the words and the contestTypes matching that reminders use, so the two never drift.
import type { ContestRow } from '../db/schema.ts'

export interface ContestRules {
  /** The contest page, else its registration page. */
  pageUrl(contest: Pick<ContestRow, 'websiteUrl' | 'registrationUrl'>): string | undefined
  /** The platform as people write it ("AtCoder"). */
  platformName(platform: string): string
  /** A length in minutes in words ("2 h 15 min"). */
  formatDuration(minutes: number): string
  /** True when a user's free-text contestTypes select the contest; an empty list selects all. */
  typesAllow(
    userTypes: readonly string[],
    contest: Pick<ContestRow, 'type' | 'platformMetadata'>,
  ): boolean
}

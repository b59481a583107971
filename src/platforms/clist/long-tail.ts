// What the long-tail platforms (listed by clist.by alone, no source of their own) share: their one
// contest type and how a clist entry becomes their contest id.
import type { ClistContest } from '../define.ts'

/**
 * One type, OTHER, for every long-tail platform (Kaggle included, though COMPETITION was
 * tempting): clist gives a name and a link, never a series or a format, so any finer type would
 * be a guess from the name that no source of the platform's own ever confirms; and the same word
 * on all of them keeps a filter by type meaning the same thing across them.
 */
export const LONG_TAIL_TYPES = ['OTHER'] as const
export const LONG_TAIL_TYPE_NAMES = { OTHER: 'Other' } as const

/**
 * The contest id the href carries when it has one that stays put; else clist's own id, prefixed
 * "clist-": clist keeps its ids for good (where the platform's link may be a shared page such as
 * a schedule), and the prefix keeps them apart from ids of the platform's own, should it gain a
 * source one day.
 */
export function longTailContest(entry: ClistContest, hrefId: string | undefined) {
  return { platformId: hrefId ?? `clist-${entry.id}`, type: LONG_TAIL_TYPES[0] }
}

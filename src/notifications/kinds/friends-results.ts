// The friends' summary: one message per account and contest naming the handles it follows that
// took part, best rank first, with their deltas. Off unless the account turns it on. A
// re-calculation that changes a friend's delta sends the summary once more.
import { platformName } from '../../contests/describe.ts'
import { defineKind } from './kind.ts'
import { payloadText } from './rendering.ts'
import { entriesOf, signed, type ContestFacts, type ResultEntry } from './result.ts'

export const FRIENDS_RESULTS_KIND = 'friends-results'

// One formatter for all (toLocaleString builds one a call: most of the alerts' time, result.ts).
const NUMBER = new Intl.NumberFormat('en-US')
const number = (n: number) => NUMBER.format(n)

/** "1. alice: rank 12, 1,671 (+59), now Expert". */
function friendLine(e: ResultEntry, place: number): string {
  const parts = [e.rank !== undefined ? `rank ${number(e.rank)}` : undefined]
  if (e.delta !== undefined) parts.push(`${number(e.newRating!)} (${signed(e.delta)})`)
  if (e.newTitle) parts.push(`now ${e.newTitle}`)
  return `${place}. ${e.handle}: ${parts.filter(Boolean).join(', ') || 'took part'}`
}

/** Best rank first; handles without a rank last, by name. */
export function ranked(entries: readonly ResultEntry[]): ResultEntry[] {
  return [...entries].sort(
    (a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity) || a.handle.localeCompare(b.handle, 'en'),
  )
}

export function friendsAlert(facts: ContestFacts, entries: readonly ResultEntry[]) {
  const contest = { name: facts.contestName, platform: facts.platform }
  const friends = ranked(entries)
  const count = friends.length
  const title =
    `${facts.recalculated ? 'Recalculated: ' : ''}${count} friend${count === 1 ? '' : 's'} ` +
    `in ${contest.name}`
  const message =
    `${contest.name} (${platformName(contest.platform)}): ` +
    friends.map((e, i) => friendLine(e, i + 1)).join('; ') +
    '.'
  return {
    title,
    message,
    payload: {
      kind: FRIENDS_RESULTS_KIND,
      contestName: facts.contestName,
      platform: facts.platform,
      rated: facts.rated,
      participants: facts.participants,
      recalculated: facts.recalculated,
      friends,
    },
  }
}

export const friendsResultsKind = defineKind({
  name: FRIENDS_RESULTS_KIND,
  headline: (n) => n.title,
  summary: (n) => {
    const friends = entriesOf(n, 'friends')
    if (friends.length === 0) return n.message
    const name = payloadText(n.payload?.contestName) ?? ''
    return `${name}: ${friends.map((e, i) => friendLine(e, i + 1)).join('; ')}.`
  },
  expiresAtContestStart: false,
})

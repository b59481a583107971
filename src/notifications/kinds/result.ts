// The personal result: once a contest's results are published, each account with a proven handle
// that took part is told its rank (of how many), problems solved when the judge says, and for a
// rated contest the old and new rating, the delta and a new title when it changed. A later
// re-calculation that changes the delta tells it once more, saying so.
import { contestUrl, platformName } from '../../contests/describe.ts'
import type { ContestRow } from '../../db/schema.ts'
import { isPlatform, platformModule } from '../../platforms/registry.ts'
import { ALL_CHANNELS, type NotificationSpec } from '../spec.ts'
import { defineKind } from './kind.ts'
import { payloadText, type StoredNotification } from './rendering.ts'

export const RESULT_KIND = 'result'

/** A stored result as the alert step reads it (contest_results). */
export interface ResultLine {
  handle: string
  rank: number | null
  solved: number | null
  oldRating: number | null
  newRating: number | null
  /** The delta told before, when a re-calculation changed it. */
  toldDelta: number | null
}

/** One handle's line as a result payload carries it. */
export interface ResultEntry {
  handle: string
  rank?: number
  solved?: number
  oldRating?: number
  newRating?: number
  delta?: number
  /** The judge's title for the new rating, when it differs from the old one's. */
  newTitle?: string
  oldTitle?: string
  /** The delta told before (a re-calculation). */
  previousDelta?: number
}

/** What every result alert of a contest shares (kept in its content's payload). */
export interface ContestFacts {
  contestName: string
  platform: string
  url?: string
  rated: boolean
  participants: number | null
  /** A re-check changed numbers told before. */
  recalculated: boolean
}

/** The facts of a contest's alerts, from its catalogue row. */
export const contestFacts = (
  contest: ContestRow,
  rated: boolean,
  participants: number | null,
): Omit<ContestFacts, 'recalculated'> => {
  const url = contestUrl(contest)
  return {
    contestName: contest.name,
    platform: contest.platform,
    ...(url && { url }),
    rated,
    participants,
  }
}

// One formatter for every number of every alert: toLocaleString builds a formatter each call,
// some 50 µs, which made most of the time of 10,000 alerts (npm run bench:results).
const NUMBER = new Intl.NumberFormat('en-US')
const number = (n: number) => NUMBER.format(n)
export const signed = (n: number) => (n > 0 ? `+${number(n)}` : n < 0 ? `-${number(-n)}` : '±0')

/** A stored line with the judge's titles read for its ratings. */
export function resultEntry(platform: string, line: ResultLine): ResultEntry {
  const rank = isPlatform(platform) ? platformModule(platform).results?.rank : undefined
  const rated = line.oldRating !== null && line.newRating !== null
  const delta = rated ? line.newRating! - line.oldRating! : undefined
  const oldTitle = rated && rank ? rank(line.oldRating!).title : undefined
  const newTitle = rated && rank ? rank(line.newRating!).title : undefined
  return {
    handle: line.handle,
    ...(line.rank !== null && { rank: line.rank }),
    ...(line.solved !== null && { solved: line.solved }),
    ...(rated && { oldRating: line.oldRating!, newRating: line.newRating!, delta }),
    ...(newTitle && newTitle !== oldTitle && { newTitle, oldTitle }),
    ...(line.toldDelta !== null &&
      line.toldDelta !== (delta ?? 0) && { previousDelta: line.toldDelta }),
  }
}

/** "rank 12 of 20,345, 5 solved, rating 1,612 -> 1,671 (+59), now Expert (was Pupil)". */
export function entryWords(e: ResultEntry, participants: number | null): string {
  const parts: string[] = []
  if (e.rank !== undefined) {
    parts.push(`rank ${number(e.rank)}${participants ? ` of ${number(participants)}` : ''}`)
  }
  if (e.solved !== undefined) parts.push(`${e.solved} solved`)
  if (e.oldRating !== undefined && e.newRating !== undefined) {
    parts.push(`rating ${number(e.oldRating)} -> ${number(e.newRating)} (${signed(e.delta ?? 0)})`)
  }
  if (e.newTitle) parts.push(`now ${e.newTitle}${e.oldTitle ? ` (was ${e.oldTitle})` : ''}`)
  if (e.previousDelta !== undefined) parts.push(`first told ${signed(e.previousDelta)}`)
  return parts.join(', ') || 'took part'
}

const contestLabel = (f: Pick<ContestFacts, 'contestName' | 'platform'>) =>
  `${f.contestName} (${platformName(f.platform)})`

/** The words of one account's alert about its own handles in the contest. */
export function resultAlert(facts: ContestFacts, entries: readonly ResultEntry[]) {
  const contest = { name: facts.contestName }
  const lead = facts.recalculated ? 'Results recalculated' : 'Your result'
  const one = entries.length === 1 ? entries[0] : undefined
  const title = one
    ? one.delta !== undefined
      ? `${lead}: ${contest.name}, ${number(one.newRating!)} (${signed(one.delta)})${one.newTitle ? `, now ${one.newTitle}` : ''}`
      : `${lead}: ${contest.name}${one.rank !== undefined ? `, rank ${number(one.rank)}` : ''}`
    : `${lead}: ${contest.name}, ${entries.length} handles`
  const message =
    `${contestLabel(facts)}${facts.rated ? '' : ' (unrated)'}: ` +
    entries.map((e) => `${e.handle}: ${entryWords(e, facts.participants)}`).join('; ') +
    '.'
  const { url } = facts
  const payload = {
    kind: RESULT_KIND,
    contestName: facts.contestName,
    platform: facts.platform,
    rated: facts.rated,
    participants: facts.participants,
    recalculated: facts.recalculated,
    results: entries,
    ...(url && { url }),
  }
  return { title, message, payload }
}

/**
 * The content every result alert of the contest points at (one per publication: `digest` tells a
 * re-calculation's alerts from the first ones). Its payload keeps the facts all the contest's
 * alerts share; each alert row keeps only its own numbers (result-words.ts makes its words).
 */
export function resultContentSpec(
  contest: ContestRow,
  facts: Omit<ContestFacts, 'recalculated'>,
  kind: string,
  digest: string,
): NotificationSpec {
  return {
    contestId: contest.id,
    type: 'CONTEST_RESULT',
    dedupeKey: `${kind}:${digest}`,
    title: `Results: ${facts.contestName}`,
    message: `The results of ${contestLabel(facts)} are out.`,
    payload: { ...facts, kind },
    channels: ALL_CHANNELS,
  }
}

/** The entries a stored result alert carries (payloads are stored JSON). */
export function entriesOf(n: StoredNotification, field: 'results' | 'friends'): ResultEntry[] {
  const list = n.payload?.[field]
  return Array.isArray(list)
    ? list.filter((e): e is ResultEntry => typeof e === 'object' && e !== null && 'handle' in e)
    : []
}

export const participantsOf = (n: StoredNotification) =>
  typeof n.payload?.participants === 'number' ? n.payload.participants : null

export const resultKind = defineKind({
  name: RESULT_KIND,
  headline: (n) => n.title,
  summary: (n) => {
    const entries = entriesOf(n, 'results')
    if (entries.length === 0) return n.message
    const name = payloadText(n.payload?.contestName) ?? ''
    const words = entries.map((e) => `${e.handle}: ${entryWords(e, participantsOf(n))}`)
    return `${name}: ${words.join('; ')}.`
  },
  // Results come after the contest: its start says nothing about when the alert goes stale.
  expiresAtContestStart: false,
})

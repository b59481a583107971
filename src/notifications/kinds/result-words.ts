// The words of a result alert stored without them: the alert step writes each row set-based in
// SQL with only its own numbers (a snapshot of the handles' stored results, `lines`), and its
// content keeps the facts all the contest's alerts share; the title, message and payload the
// history and every channel show are made here when the row is read, by resultAlert and
// friendsAlert, the same words the alert step used to store.
import { friendsAlert, FRIENDS_RESULTS_KIND } from './friends-results.ts'
import { payloadText } from './rendering.ts'
import {
  RESULT_KIND,
  resultAlert,
  resultEntry,
  type ContestFacts,
  type ResultLine,
} from './result.ts'

/**
 * One handle's numbers as a row keeps them: [handle, rank, solved, old rating, new rating, the
 * delta told before]. The SQL that writes them (scheduling/results.ts) builds this array.
 */
type StoredLine = [
  string,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
]

const numberOrNull = (v: unknown) => (typeof v === 'number' ? v : null)

function linesOf(payload: Record<string, unknown>): ResultLine[] | undefined {
  if (!Array.isArray(payload.lines)) return undefined
  return (payload.lines as unknown[])
    .filter((l): l is StoredLine => Array.isArray(l) && typeof l[0] === 'string')
    .map((l) => ({
      handle: l[0],
      rank: numberOrNull(l[1]),
      solved: numberOrNull(l[2]),
      oldRating: numberOrNull(l[3]),
      newRating: numberOrNull(l[4]),
      toldDelta: numberOrNull(l[5]),
    }))
}

interface WordsRow {
  type: string
  title: string
  message: string
  payload: Record<string, unknown> | null
}

/**
 * The row with its words when it is a result alert kept as numbers (`lines` in its payload, the
 * facts in `contentPayload`); any other row as it is. Pure and cheap: the history renders a page
 * of rows with it, a delivery batch its notifications.
 */
export function withResultWords<Row extends WordsRow>(
  row: Row,
  contentPayload: Record<string, unknown> | null | undefined,
): Row {
  if (row.type !== 'CONTEST_RESULT' || !row.payload || !contentPayload) return row
  const lines = linesOf(row.payload)
  if (!lines) return row
  const platform = payloadText(contentPayload.platform) ?? ''
  const url = payloadText(contentPayload.url)
  const facts = {
    contestName: payloadText(contentPayload.contestName) ?? '',
    platform,
    ...(url && { url }),
    rated: contentPayload.rated === true,
    participants: numberOrNull(contentPayload.participants),
  }
  const recheck = row.payload.recheck === 1 || row.payload.recheck === true
  const entries = lines.map((line) => resultEntry(platform, line))
  const kind = payloadText(row.payload.kind)
  let words: { title: string; message: string; payload: Record<string, unknown> }
  if (kind === FRIENDS_RESULTS_KIND) {
    words = friendsAlert({ ...facts, recalculated: recheck } satisfies ContestFacts, entries)
  } else if (kind === RESULT_KIND) {
    // In handle key order, as the alert listed them when it kept its words.
    const order = lines.map((l, i) => [l.handle.toLowerCase(), i] as const)
    order.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    const recalculated = recheck && lines.some((l) => l.toldDelta !== null)
    words = resultAlert(
      { ...facts, recalculated },
      order.map(([, i]) => entries[i]),
    )
  } else {
    return row
  }
  return { ...row, title: words.title, message: words.message, payload: words.payload }
}

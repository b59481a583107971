// Rank posts: once a contest's results are stored (the results consumer's onPublished hook), every
// live destination that turned rank updates on, follows the contest's platform and has a member
// who took part gets one community_rank_posts row (the unique (destination, contest) key, so
// concurrent runs and retried messages add none), queued on the notifications queue; a hook that
// died before queueing leaves rows the next call for the contest queues.
import { contestUrl } from '../contests/describe.ts'
import type { ContestRow } from '../db/schema.ts'
import { escapeHtml } from '../lib/html.ts'
import { isPlatform, platformModule, platformName } from '../platforms/registry.ts'
import type { QueueProducer } from '../ports/queue.ts'
import { destinationHasResultsSql, type MemberResult } from '../results/community-members.ts'

/** The body of a rank post's message on the notifications queue. */
export interface RankPostMessage {
  rankPostId: string
}

export const isRankPostMessage = (body: unknown): body is RankPostMessage =>
  typeof (body as RankPostMessage | null)?.rankPostId === 'string'

/** Lines a post lists at most; the rest are counted ("and 12 more"). */
export const MAX_RANK_LINES = 20

// ?1 contest, ?2 its platform, ?3 now.
const CREATE_SQL = `INSERT INTO community_rank_posts
    (id, destination_id, contest_id, status, created_at, updated_at)
  SELECT lower(hex(randomblob(12))), d.id, ?1, 'PENDING', ?3, ?3
    FROM community_destinations d
    WHERE d.rank_updates = 1 AND d.dead_at IS NULL
      AND ?2 IN (SELECT value FROM json_each(d.platforms))
      AND ${destinationHasResultsSql('d.id')}
  ON CONFLICT DO NOTHING`

const UNQUEUED_SQL = `SELECT id FROM community_rank_posts
  WHERE contest_id = ?1 AND queued_at IS NULL LIMIT 1000`

const MARK_QUEUED_SQL = `UPDATE community_rank_posts SET queued_at = ?1
  WHERE id IN (SELECT value FROM json_each(?2)) AND queued_at IS NULL`

/**
 * Makes the contest's rank posts (on its first publication only: a re-check changes no post) and
 * queues those not queued yet. Two calls at once may both queue a row; its claim sends it once.
 */
export async function createRankPosts(
  d1: D1Database,
  queue: QueueProducer,
  input: { contest: ContestRow; first: boolean; now: number },
) {
  const { contest, now } = input
  const made = input.first
    ? (await d1.prepare(CREATE_SQL).bind(contest.id, contest.platform, now).run()).meta.changes
    : 0
  const { results } = await d1.prepare(UNQUEUED_SQL).bind(contest.id).all<{ id: string }>()
  for (let i = 0; i < results.length; i += 100) {
    const page = results.slice(i, i + 100)
    await queue.sendBatch(
      page.map((r) => ({ body: { rankPostId: r.id } satisfies RankPostMessage })),
    )
    await d1
      .prepare(MARK_QUEUED_SQL)
      .bind(now, JSON.stringify(page.map((r) => r.id)))
      .run()
  }
  return { rankPostsMade: made, rankPostsQueued: results.length }
}

const number = (n: number) => n.toLocaleString('en-US')
const signed = (n: number) => (n > 0 ? `+${number(n)}` : n < 0 ? `-${number(-n)}` : '±0')

/** One member's line, in the order a post lists them. */
export interface RankLine {
  handle: string
  rank: number | null
  solved: number | null
  oldRating?: number
  newRating?: number
  delta?: number
  /** The judge's title for the new rating, when it differs from the old one's. */
  newTitle?: string
}

/** The lines of the results: best gains first (then rank), unrated lines by rank after them. */
export function rankLines(platform: string, rows: readonly MemberResult[]): RankLine[] {
  const rank = isPlatform(platform) ? platformModule(platform).results?.rank : undefined
  const lines = rows.map((r): RankLine => {
    const base = { handle: r.handle, rank: r.rank, solved: r.solved }
    if (r.oldRating === null || r.newRating === null) return base
    const oldTitle = rank?.(r.oldRating).title
    const newTitle = rank?.(r.newRating).title
    return {
      ...base,
      oldRating: r.oldRating,
      newRating: r.newRating,
      delta: r.newRating - r.oldRating,
      ...(newTitle && newTitle !== oldTitle && { newTitle }),
    }
  })
  const byRank = (a: RankLine, b: RankLine) =>
    (a.rank ?? Number.MAX_SAFE_INTEGER) - (b.rank ?? Number.MAX_SAFE_INTEGER) ||
    a.handle.localeCompare(b.handle)
  return lines.sort((a, b) => {
    if (a.delta !== undefined && b.delta !== undefined) return b.delta - a.delta || byRank(a, b)
    if (a.delta !== undefined) return -1
    if (b.delta !== undefined) return 1
    return byRank(a, b)
  })
}

/**
 * "rank 12 of 9,800, 5 solved, 1,587 -> 1,623 (+36), now Expert": of how many when the post has
 * a count (`participants`, which rankPostWords keeps only when it holds every rank listed).
 */
function lineWords(line: RankLine, participants: number | null): string {
  const parts: string[] = []
  const of = participants !== null ? ` of ${number(participants)}` : ''
  if (line.rank !== null) parts.push(`rank ${number(line.rank)}${of}`)
  if (line.solved !== null) parts.push(`${line.solved} solved`)
  if (line.delta !== undefined) {
    parts.push(`${number(line.oldRating!)} -> ${number(line.newRating!)} (${signed(line.delta)})`)
  }
  if (line.newTitle) parts.push(`now ${line.newTitle}`)
  return parts.join(', ') || 'took part'
}

/**
 * A post's words: its title, its lines (bounded, each rank of `participants` when the judge
 * counted them), the count left off, the contest's link.
 */
export function rankPostWords(
  contest: ContestRow,
  rows: readonly MemberResult[],
  participants: number | null = null,
) {
  const lines = rankLines(contest.platform, rows)
  const rated = lines.some((l) => l.delta !== undefined)
  // One count for the whole post, or none: a count below a rank is not the field's size (a
  // judge that counts only its rated rows, or a list cut short), so it must hold the worst one.
  const worst = Math.max(0, ...lines.map((l) => l.rank ?? 0))
  const of = participants !== null && participants >= worst ? participants : null
  const shown = lines.slice(0, MAX_RANK_LINES)
  return {
    title: `Results: ${contest.name} (${platformName(contest.platform)})${rated ? '' : ', unrated'}`,
    lines: shown.map((l, i) => ({
      n: i + 1,
      handle: l.handle,
      words: lineWords(l, of),
    })),
    more: lines.length - shown.length,
    url: contestUrl(contest),
  }
}

type Words = ReturnType<typeof rankPostWords>

/** Discord: an embed, the handles in bold (Discord's markdown escaped in them). */
export function discordRankPost(w: Words) {
  const md = (s: string) => s.replace(/([\\*_~`|>[\]()#-])/g, '\\$1')
  const body = w.lines.map((l) => `${l.n}. **${md(l.handle)}**: ${l.words}`)
  if (w.more > 0) body.push(`and ${w.more} more`)
  return {
    embeds: [{ title: w.title, description: body.join('\n'), ...(w.url && { url: w.url }) }],
    allowed_mentions: { parse: [] as string[] },
  }
}

/** Telegram: Bot API HTML, every text the service did not write itself escaped. */
export function telegramRankPost(w: Words) {
  const head = w.url
    ? `<b><a href="${escapeHtml(w.url)}">${escapeHtml(w.title)}</a></b>`
    : `<b>${escapeHtml(w.title)}</b>`
  const body = w.lines.map((l) => `${l.n}. <b>${escapeHtml(l.handle)}</b>: ${escapeHtml(l.words)}`)
  if (w.more > 0) body.push(`and ${w.more} more`)
  return [head, ...body].join('\n')
}

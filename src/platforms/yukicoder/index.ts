// yukicoder: the /contest/future API answer (contests not yet over) turned into contests.
import { z } from 'zod'
import type { SourceContest } from '../contest.ts'
import { definePlatform } from '../define.ts'
import { shiftJson } from '../fixture-time.ts'
import {
  idField,
  ResultCollector,
  type AdapterResult,
  type ParseOptions,
  type SourceRequest,
} from '../source.ts'
import { fetchJson, readEnvelope } from '../upstream.ts'

const SITE = 'https://yukicoder.me'

// The answer is a bare array; yukicoder reports failures as an object ({ Message }) instead.
const envelopeSchema = z.array(z.unknown())

// Times are RFC 3339 in Japan time ("2026-11-27T21:20:00+09:00"); the offset is required so
// that a time can never be read in the wrong zone.
const isoWithOffset = z.iso.datetime({ offset: true })

const contestSchema = z
  .object({
    Id: z.number().int().positive(),
    Name: z.string().trim().min(1),
    Date: isoWithOffset,
    EndDate: isoWithOffset,
    ProblemIdList: z.array(z.number().int().positive()),
  })
  .transform((c, ctx) => {
    const startTime = Date.parse(c.Date)
    const endTime = Date.parse(c.EndDate)
    if (endTime <= startTime) {
      ctx.addIssue({ code: 'custom', message: 'EndDate is not after Date' })
      return z.NEVER
    }
    return { id: c.Id, name: c.Name, startTime, endTime, problemCount: c.ProblemIdList.length }
  })

const TYPES = ['REGULAR', 'OTHER'] as const
type YukicoderType = (typeof TYPES)[number]
type YukicoderContest = SourceContest<'yukicoder', YukicoderType>

/**
 * REGULAR for the weekly "yukicoder contest NNN" series. An upcoming round is listed as plain
 * "yukicoder contest" (or with a theme: "yukicoder contest (ゲーム問題コンテスト)") and gets its
 * number later, so the number is not required: the type must not change when it arrives.
 */
export function yukicoderType(name: string): YukicoderType {
  return /^yukicoder\s+contest\b/i.test(name.trim()) ? 'REGULAR' : 'OTHER'
}

/** Turns a /contest/future answer into contests; an answer that is not an array throws. */
export function parseYukicoder(
  payload: unknown,
  now: number,
  options: ParseOptions = {},
): AdapterResult<YukicoderContest> {
  const items = readEnvelope(
    'yukicoder',
    envelopeSchema,
    payload,
    'contest/future answer is not an array',
  )

  const out = new ResultCollector<YukicoderContest>(now, options)
  items.forEach((item, index) => {
    const ref = `yukicoder contest ${idField(item, 'Id') ?? `#${index}`}`
    const parsed = contestSchema.safeParse(item)
    if (!parsed.success) return out.skipInvalid(ref, parsed.error)
    // The list can lag behind the clock by a little; a contest that is over is not news.
    out.keepUnlessEnded(toContest(parsed.data))
  })
  return out.result()
}

function toContest(contest: z.infer<typeof contestSchema>): YukicoderContest {
  return {
    platform: 'yukicoder',
    platformId: String(contest.id),
    name: contest.name,
    type: yukicoderType(contest.name),
    startTime: contest.startTime,
    endTime: contest.endTime,
    websiteUrl: `${SITE}/contests/${contest.id}`,
    // A round whose problems are not assigned yet lists none; "0 problems" would be wrong.
    ...(contest.problemCount > 0 && { problemCount: contest.problemCount }),
  }
}

/** GET {YUKICODER_API_URL}/contest/future */
export async function fetchYukicoder(
  request: SourceRequest,
): Promise<AdapterResult<YukicoderContest>> {
  const answer = await fetchJson('yukicoder', request, '/contest/future')
  return parseYukicoder(answer, request.now, request)
}

export const yukicoder = definePlatform({
  id: 'yukicoder',
  name: 'yukicoder',
  homeUrl: SITE,
  contestsUrl: `${SITE}/contests`,
  types: TYPES,
  typeNames: { REGULAR: 'Regular', OTHER: 'Other' },
  source: {
    setting: 'YUKICODER_API_URL',
    defaultUrl: 'https://yukicoder.me/api/v1',
    fetch: fetchYukicoder,
    fixtures: [
      {
        method: 'GET',
        path: '/contest/future',
        file: 'fixtures/contest-future.json',
        contentType: 'application/json',
        shift: shiftJson(),
      },
    ],
  },
  clist: {
    resource: 'yukicoder.me',
    contest(entry) {
      const id = /^https?:\/\/yukicoder\.me\/contests\/(\d+)\/?(?:[?#].*)?$/.exec(entry.href)?.[1]
      return id ? { platformId: id, type: yukicoderType(entry.event) } : undefined
    },
  },
})

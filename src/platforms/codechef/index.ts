// CodeChef: the /api/list/contests/all answer (present, future, past) turned into contests, and
// the results its profile pages carry (results.ts).
import { z } from 'zod'
import type { Difficulty, SourceContest } from '../contest.ts'
import { definePlatform } from '../define.ts'
import { shiftJson } from '../fixture-time.ts'
import {
  ResultCollector,
  stringField,
  type AdapterResult,
  type ParseOptions,
  type SourceRequest,
} from '../source.ts'
import { fetchJson, readEnvelope, UpstreamError } from '../upstream.ts'
import { codechefResults } from './results.ts'
import { codechefRoundCode, MONTH_CODE, SERIES_CODE } from './round-code.ts'

export { codechefRoundCode }

const SITE = 'https://www.codechef.com'

// present and future are required: a page that only lists the past must not pass for "nothing
// upcoming"; past is a bonus for the finished lists.
const envelopeSchema = z.object({
  status: z.string().optional(),
  message: z.string().optional(),
  present_contests: z.array(z.unknown()),
  future_contests: z.array(z.unknown()),
  past_contests: z.array(z.unknown()).optional(),
})

// CodeChef leaves fields it has no value for as "" or null; those count as absent.
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional())
const isoWithOffset = z.iso.datetime({ offset: true })

const contestSchema = z
  .object({
    contest_code: z.string().regex(/^[A-Za-z0-9_-]+$/),
    contest_name: z.string().trim().min(1),
    contest_start_date_iso: isoWithOffset,
    contest_end_date_iso: optional(isoWithOffset),
    // Minutes as a string ("120"); the end time is taken from it only when the ISO end is absent.
    contest_duration: optional(z.coerce.number().int().positive()),
    distinct_users: optional(z.coerce.number().int().nonnegative()),
  })
  .transform((c, ctx) => {
    const startTime = Date.parse(c.contest_start_date_iso)
    const endTime = c.contest_end_date_iso
      ? Date.parse(c.contest_end_date_iso)
      : c.contest_duration && startTime + c.contest_duration * 60_000
    if (!endTime || endTime <= startTime) {
      ctx.addIssue({ code: 'custom', message: 'no end time after the start time' })
      return z.NEVER
    }
    return {
      code: c.contest_code,
      name: c.contest_name,
      startTime,
      endTime,
      users: c.distinct_users,
    }
  })

const TYPES = ['LONG', 'COOK_OFF', 'LUNCH_TIME', 'STARTERS'] as const
type CodechefType = (typeof TYPES)[number]
type CodechefContest = SourceContest<'codechef', CodechefType>

export const CODECHEF_DIVISIONS = ['div1', 'div2', 'div3', 'div4'] as const
export type CodechefDivision = (typeof CODECHEF_DIVISIONS)[number]

/** CodeChef's divisions follow the same rating bands as Codeforces's. */
export const CODECHEF_DIFFICULTY: Record<CodechefDivision, Difficulty> = {
  div4: 'BEGINNER',
  div3: 'EASY',
  div2: 'MEDIUM',
  div1: 'EXPERT',
}

/** A CodeChef contest open to several divisions has no single level, so it gets none. */
export function codechefDifficulty(divisions: readonly CodechefDivision[]) {
  return divisions.length === 1 ? CODECHEF_DIFFICULTY[divisions[0]] : undefined
}

const LONG_CODE = new RegExp(`^${MONTH_CODE}\\d{2,3}[A-D]?$`)

/** The contest series from the code (START265, COOK152, LTIME120, NOV261) or the name. */
export function codechefType(code: string, name: string): CodechefType | undefined {
  const upper = code.toUpperCase()
  if (/^START\d+[A-D]?$/.test(upper) || /\bstarters\b/i.test(name)) return 'STARTERS'
  if (/^COOK\d+[A-D]?$/.test(upper) || /\bcook[\s-]?off\b/i.test(name)) return 'COOK_OFF'
  if (/^LTIME\d+[A-D]?$/.test(upper) || /\blunch\s?time\b/i.test(name)) return 'LUNCH_TIME'
  if (LONG_CODE.test(upper) || /\blong\s+(?:challenge|one|two)\b/i.test(name)) return 'LONG'
  return undefined
}

/**
 * Codes an earlier parser stored a round under (its division children, START134A to START134D),
 * which the sync hands over to the round's own code rather than cancel.
 */
export function codechefChildCodes(code: string): string[] {
  if (!SERIES_CODE.test(code.toUpperCase()) || codechefRoundCode(code) !== code) return []
  return ['A', 'B', 'C', 'D'].map((letter) => `${code}${letter}`)
}

/**
 * The divisions a round's name says it is for, lowest number first: "Starters 265 (Div. 4)" is
 * for div4, "Rated for Div 2, 3 & 4" for div2, div3 and div4. A name that names none ("Starters
 * 134", "Rated till 6 Stars") gives none: the answer says nothing more, and the child code's
 * letter only says which child the list happened to show (START134B is open to all).
 */
export function codechefDivisions(name: string): CodechefDivision[] {
  const lists = name.matchAll(
    /\bdiv(?:ision)?s?\.?\s*[1-4](?:\s*(?:,|&|\+|and)\s*(?:div(?:ision)?\.?\s*)?[1-4])*/gi,
  )
  const numbers = new Set([...lists].flatMap((m) => m[0].match(/[1-4]/g) ?? []))
  return [...numbers].sort().map((n) => `div${n}` as CodechefDivision)
}

/** Turns a contests/all answer into contests; a missing present or future list throws. */
export function parseCodechefContests(
  payload: unknown,
  now: number,
  options: ParseOptions = {},
): AdapterResult<CodechefContest> {
  const status = (payload as { status?: unknown } | null)?.status
  if (typeof status === 'string' && status !== 'success') {
    const message = (payload as { message?: unknown }).message
    throw new UpstreamError('codechef', 'api', `status ${status}: ${String(message ?? '')}`)
  }
  const envelope = readEnvelope(
    'codechef',
    envelopeSchema,
    payload,
    'answer lacks present_contests/future_contests lists',
  )

  const out = new ResultCollector<CodechefContest>(now, options)
  const { present_contests, future_contests, past_contests = [] } = envelope
  // Present and future first, so a contest listed twice (or under two of its codes) keeps its
  // freshest entry.
  const items = [...present_contests, ...future_contests, ...past_contests]
  items.forEach((item, index) => {
    const ref = `codechef contest ${stringField(item, 'contest_code') ?? `#${index}`}`
    const parsed = contestSchema.safeParse(item)
    if (!parsed.success) return out.skipInvalid(ref, parsed.error)
    const type = codechefType(parsed.data.code, parsed.data.name)
    if (!type) return out.markUnsupported()
    out.keep(toContest(parsed.data, type))
  })
  return out.result()
}

function toContest(contest: z.infer<typeof contestSchema>, type: CodechefType): CodechefContest {
  const code = codechefRoundCode(contest.code)
  const divisions = codechefDivisions(contest.name)
  const difficulty = codechefDifficulty(divisions)
  // The round's own page: the one CodeChef's banners link to, which shows every division.
  const page = `${SITE}/${code}`
  return {
    platform: 'codechef',
    platformId: code,
    name: contest.name,
    type,
    startTime: contest.startTime,
    endTime: contest.endTime,
    websiteUrl: page,
    registrationUrl: page,
    ...(difficulty && { difficulty }),
    // Future contests report 0 users; a zero would drag participant averages down.
    ...(contest.users && { participantCount: contest.users }),
    // Several divisions as Codeforces writes a combined round ("div2+div3+div4"): the matching
    // tags the contest with each of them.
    ...(divisions.length > 0 && { platformMetadata: { division: divisions.join('+') } }),
  }
}

/** GET {CODECHEF_API_URL}/api/list/contests/all */
export async function fetchCodechef(
  request: SourceRequest,
): Promise<AdapterResult<CodechefContest>> {
  const answer = await fetchJson('codechef', request, '/api/list/contests/all')
  return parseCodechefContests(answer, request.now, request)
}

export const codechef = definePlatform({
  id: 'codechef',
  name: 'CodeChef',
  homeUrl: 'https://www.codechef.com',
  contestsUrl: 'https://www.codechef.com/contests',
  types: TYPES,
  typeNames: { LONG: 'Long', COOK_OFF: 'Cook-Off', LUNCH_TIME: 'Lunchtime', STARTERS: 'Starters' },
  source: {
    setting: 'CODECHEF_API_URL',
    defaultUrl: 'https://www.codechef.com',
    fetch: fetchCodechef,
    fixtures: [
      {
        method: 'GET',
        path: '/api/list/contests/all',
        file: 'fixtures/codechef-contests-all.json',
        contentType: 'application/json',
        shift: shiftJson(),
      },
    ],
  },
  formerIds: codechefChildCodes,
  clist: {
    resource: 'codechef.com',
    contest(entry) {
      const code = /^https?:\/\/(?:www\.)?codechef\.com\/([A-Za-z0-9_-]+)\/?$/.exec(entry.href)?.[1]
      const type = code && codechefType(code, entry.event)
      // clist.by links the round's own code (START151); a child's is keyed as the own source does.
      return type ? { platformId: codechefRoundCode(code), type } : undefined
    },
  },
  results: codechefResults,
})

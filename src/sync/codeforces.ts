// Codeforces adapter: the contest.list API answer turned into catalogue contests.
import { z } from 'zod'
import { TYPES_BY_PLATFORM } from '../contests/schemas.ts'
import type { ContestInput } from '../contests/contest-input.ts'
import {
  ResultCollector,
  type AdapterResult,
  type FetchFn,
  type FetchOptions,
  type ParseOptions,
} from './adapter.ts'
import { codeforcesDifficulty, type CodeforcesDivision } from './difficulty.ts'
import {
  fetchText,
  joinUrl,
  parseJson,
  statusError,
  tryParseJson,
  UpstreamError,
} from './upstream.ts'

const SITE = 'https://codeforces.com'

const envelopeSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('OK'), result: z.array(z.unknown()) }),
  z.object({ status: z.literal('FAILED'), comment: z.string().optional() }),
])

// Only the fields the catalogue needs are required; contest.list adds others over the years.
const contestSchema = z.object({
  id: z.number().int().positive(),
  name: z.string().trim().min(1),
  type: z.string().min(1),
  phase: z.string().min(1),
  frozen: z.boolean().optional(),
  durationSeconds: z.number().int().positive(),
  startTimeSeconds: z.number().int().positive(),
  relativeTimeSeconds: z.number().int().optional(),
})

const CONTEST_TYPES: readonly string[] = TYPES_BY_PLATFORM.codeforces
type CodeforcesType = (typeof TYPES_BY_PLATFORM.codeforces)[number]

/**
 * The division a round is for, read from its name. Combined and branded rounds first, since
 * their names also carry "Div. 2" ("Educational Codeforces Round 187 (Rated for Div. 2)").
 */
export function codeforcesDivision(name: string): CodeforcesDivision | undefined {
  if (/div\.?\s*1\s*(?:\+|,|&|and)\s*(?:div\.?\s*)?2\b/i.test(name)) return 'div1+div2'
  if (/\beducational\b/i.test(name)) return 'educational'
  if (/\bglobal\s+round\b/i.test(name)) return 'global'
  const single = /\bdiv\.?\s*([1-4])\b/i.exec(name)
  return single ? (`div${single[1]}` as CodeforcesDivision) : undefined
}

/** Turns a contest.list answer into contests; a FAILED answer or a broken envelope throws. */
export function parseCodeforcesContestList(
  payload: unknown,
  now: number,
  options: ParseOptions = {},
): AdapterResult {
  const envelope = envelopeSchema.safeParse(payload)
  if (!envelope.success) {
    throw new UpstreamError('codeforces', 'malformed', 'contest.list answer has no status/result')
  }
  if (envelope.data.status === 'FAILED') {
    throw failedError(envelope.data.comment)
  }

  const out = new ResultCollector(now, options)
  envelope.data.result.forEach((item, index) => {
    const ref = `codeforces contest ${idOf(item) ?? `#${index}`}`
    const parsed = contestSchema.safeParse(item)
    if (!parsed.success) return out.skipInvalid(ref, parsed.error)
    const contest = parsed.data
    if (!CONTEST_TYPES.includes(contest.type)) return out.markUnsupported()
    out.keep(toContest(contest, contest.type as CodeforcesType))
  })
  return out.result()
}

function toContest(contest: z.infer<typeof contestSchema>, type: CodeforcesType): ContestInput {
  const startTime = contest.startTimeSeconds * 1000
  const division = codeforcesDivision(contest.name)
  const difficulty = codeforcesDifficulty(division)
  return {
    platform: 'codeforces',
    platformId: String(contest.id),
    name: contest.name,
    type,
    startTime,
    endTime: startTime + contest.durationSeconds * 1000,
    websiteUrl: `${SITE}/contest/${contest.id}`,
    registrationUrl: `${SITE}/contestRegistration/${contest.id}`,
    ...(difficulty && { difficulty }),
    platformMetadata: {
      codeforcesType: contest.type,
      // PENDING_SYSTEM_TEST and SYSTEM_TEST are kept as given; the catalogue derives its own
      // phase from the times, so they read as CODING or FINISHED there.
      phase: contest.phase,
      ...(contest.frozen !== undefined && { frozen: contest.frozen }),
      ...(contest.relativeTimeSeconds !== undefined && {
        relativeTimeSeconds: contest.relativeTimeSeconds,
      }),
      ...(division && { division }),
    },
  }
}

/** GET {CODEFORCES_API_URL}/contest.list?gym=false */
export async function fetchCodeforces(
  baseUrl: string,
  fetchFn: FetchFn,
  now: number,
  options: FetchOptions = {},
): Promise<AdapterResult> {
  const res = await fetchText(
    'codeforces',
    joinUrl(baseUrl, '/contest.list?gym=false'),
    { headers: { Accept: 'application/json' } },
    fetchFn,
    options.timeoutMs,
  )
  if (!res.ok) {
    // Codeforces answers refused calls (bad parameters, call limit) with 4xx and a FAILED body.
    const body = envelopeSchema.safeParse(tryParseJson(res.text))
    if (body.success && body.data.status === 'FAILED')
      throw failedError(body.data.comment, res.status)
    throw statusError('codeforces', res)
  }
  return parseCodeforcesContestList(parseJson('codeforces', res.text), now, options)
}

function failedError(comment: string | undefined, status?: number) {
  return new UpstreamError(
    'codeforces',
    'api',
    `contest.list FAILED: ${comment ?? 'no comment'}`,
    status,
  )
}

function idOf(item: unknown): string | undefined {
  const id = (item as { id?: unknown } | null)?.id
  return typeof id === 'number' || typeof id === 'string' ? String(id) : undefined
}

// Codeforces' contest.list API answer turned into contests: rounds (gym=false) for codeforces,
// gyms (gym=true) for codeforces-gym, which share the envelope, the fields and the types.
import { z } from 'zod'
import type { Difficulty, SourceContest } from '../contest.ts'
import { shiftJson } from '../fixture-time.ts'
import {
  idField,
  ResultCollector,
  type AdapterResult,
  type ParseOptions,
  type SourceRequest,
} from '../source.ts'
import {
  fetchJson,
  readEnvelope,
  tryParseJson,
  UpstreamError,
  type UpstreamResponse,
} from '../upstream.ts'

export const SITE = 'https://codeforces.com'

export const CODEFORCES_TYPES = ['CF', 'IOI', 'ICPC'] as const
export type CodeforcesType = (typeof CODEFORCES_TYPES)[number]
export const CODEFORCES_TYPE_NAMES = { CF: 'Rounds (CF)', ICPC: 'ICPC format', IOI: 'IOI format' }
type ListPlatform = 'codeforces' | 'codeforces-gym'
type ListContest<P extends ListPlatform> = SourceContest<P, CodeforcesType>

export const CODEFORCES_DIVISIONS = [
  'div1',
  'div2',
  'div3',
  'div4',
  'div1+div2',
  'educational',
  'global',
] as const
export type CodeforcesDivision = (typeof CODEFORCES_DIVISIONS)[number]

/**
 * Codeforces rates by division: Div. 4 is for ratings below 1400, Div. 3 below 1600, Div. 2 and
 * Educational rounds (rated for Div. 2) below 2100, combined Div. 1 + Div. 2 and Global rounds
 * mix everyone with a hard top end, Div. 1 is for 1900 and above.
 */
export const CODEFORCES_DIFFICULTY: Record<CodeforcesDivision, Difficulty> = {
  div4: 'BEGINNER',
  div3: 'EASY',
  div2: 'MEDIUM',
  educational: 'MEDIUM',
  'div1+div2': 'HARD',
  global: 'HARD',
  div1: 'EXPERT',
}

/** Seconds and ISO strings of a recorded contest.list, moved for a later stand-in. */
export const shiftContestList = shiftJson({ seconds: ['startTimeSeconds'] })

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

const CONTEST_TYPES: readonly string[] = CODEFORCES_TYPES

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
): AdapterResult<ListContest<'codeforces'>> {
  return parseContestList('codeforces', payload, now, options)
}

export function parseContestList<P extends ListPlatform>(
  platform: P,
  payload: unknown,
  now: number,
  options: ParseOptions = {},
): AdapterResult<ListContest<P>> {
  const envelope = readEnvelope(
    platform,
    envelopeSchema,
    payload,
    'contest.list answer has no status/result',
  )
  if (envelope.status === 'FAILED') {
    throw failedError(platform, envelope.comment)
  }

  const gym = platform === 'codeforces-gym'
  const out = new ResultCollector<ListContest<P>>(now, options)
  envelope.result.forEach((item, index) => {
    // The gym list holds every gym ever made, and a gym without a start time is a training set
    // that anyone runs when they like: only scheduled gyms still to come are contests to follow.
    if (gym && !isScheduledGym(item, now)) return
    const ref = `${platform} contest ${idField(item, 'id') ?? `#${index}`}`
    const parsed = contestSchema.safeParse(item)
    if (!parsed.success) return out.skipInvalid(ref, parsed.error)
    const contest = parsed.data
    if (!CONTEST_TYPES.includes(contest.type)) return out.markUnsupported()
    out.keep(toContest(platform, contest, contest.type as CodeforcesType))
  })
  return out.result()
}

function isScheduledGym(item: unknown, now: number): boolean {
  const gym = item as { phase?: unknown; startTimeSeconds?: unknown; durationSeconds?: unknown }
  if (gym?.phase !== 'BEFORE' && gym?.phase !== 'CODING') return false
  if (typeof gym.startTimeSeconds !== 'number') return false
  const duration = typeof gym.durationSeconds === 'number' ? gym.durationSeconds : 0
  return (gym.startTimeSeconds + duration) * 1000 > now
}

function toContest<P extends ListPlatform>(
  platform: P,
  contest: z.infer<typeof contestSchema>,
  type: CodeforcesType,
): ListContest<P> {
  const startTime = contest.startTimeSeconds * 1000
  const common = {
    platform,
    platformId: String(contest.id),
    name: contest.name,
    type,
    startTime,
    endTime: startTime + contest.durationSeconds * 1000,
  }
  if (platform === 'codeforces-gym') {
    const page = `${SITE}/gym/${contest.id}`
    return {
      ...common,
      websiteUrl: page,
      registrationUrl: page,
      platformMetadata: { codeforcesType: contest.type, phase: contest.phase },
    }
  }
  const division = codeforcesDivision(contest.name)
  const difficulty = division && CODEFORCES_DIFFICULTY[division]
  return {
    ...common,
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

/**
 * GET {CODEFORCES_API_URL}/contest.list?gym=false&lang=en (gym=true for codeforces-gym). Without
 * lang the API picks the language itself and may name rounds in Russian; lang=en is what clist.by
 * and other trackers send, and the names stored and mailed are English.
 */
export async function fetchContestList<P extends ListPlatform>(
  platform: P,
  request: SourceRequest,
): Promise<AdapterResult<ListContest<P>>> {
  const gym = platform === 'codeforces-gym'
  // Codeforces answers refused calls (bad parameters, call limit) with 4xx and a FAILED body.
  const refusal = (res: UpstreamResponse) => {
    const body = envelopeSchema.safeParse(tryParseJson(res.text))
    if (body.success && body.data.status === 'FAILED') {
      return failedError(platform, body.data.comment, res.status)
    }
    return undefined
  }
  const answer = await fetchJson(platform, request, contestListPath(gym), {}, refusal)
  return parseContestList(platform, answer, request.now, request)
}

/** The path of the list (rounds or gyms) with English names asked for. */
export function contestListPath(gym: boolean): string {
  return `/contest.list?gym=${gym}&lang=en`
}

export function fetchCodeforces(request: SourceRequest) {
  return fetchContestList('codeforces', request)
}

function failedError(platform: ListPlatform, comment: string | undefined, status?: number) {
  return new UpstreamError(
    platform,
    'api',
    `contest.list FAILED: ${comment ?? 'no comment'}`,
    status,
  )
}

// HackerRank: the REST list of upcoming (and running) contests turned into contests.
import { z } from 'zod'
import { DAY_MS } from '../../lib/time.ts'
import type { SourceContest } from '../contest.ts'
import { definePlatform } from '../define.ts'
import { shiftJson } from '../fixture-time.ts'
import {
  ResultCollector,
  stringField,
  type AdapterResult,
  type ParseOptions,
  type SourceRequest,
} from '../source.ts'
import { fetchJson, readEnvelope } from '../upstream.ts'

const ID = 'hackerrank'
const SITE = 'https://www.hackerrank.com'
const LIST_PATH = '/rest/contests/upcoming'

/**
 * HackerRank's contests have no series worth a type of their own: CodeSprints, HourRanks, Week of
 * Code and sponsored rounds come, pause for years and change format, so every one is OTHER.
 */
export const HACKERRANK_TYPES = ['OTHER'] as const
type HackerrankType = (typeof HACKERRANK_TYPES)[number]
type HackerrankContest = SourceContest<typeof ID, HackerrankType>

/**
 * Longer than this, a "contest" is a practice board: ProjectEuler+ is listed as a contest that
 * started in 2014 and whose end is pushed years ahead. Nobody wants an alert for it.
 */
const PRACTICE_BOARD_MS = 365 * DAY_MS

// models is required: an answer without it must not pass for "no contests".
const listSchema = z.object({ models: z.array(z.unknown()) })

const SLUG = /^[A-Za-z0-9][\w-]*$/

const modelSchema = z
  .object({
    id: z.number().int().positive(),
    slug: z.string().regex(SLUG),
    name: z.string().trim().min(1),
    epoch_starttime: z.number().int().positive(),
    // null for a board that never closes.
    epoch_endtime: z.number().int().positive().nullable(),
    rated: z.boolean().optional(),
  })
  .refine((m) => m.epoch_endtime === null || m.epoch_endtime > m.epoch_starttime, {
    message: 'epoch_endtime is not after epoch_starttime',
    path: ['epoch_endtime'],
  })

type HackerrankModel = z.infer<typeof modelSchema>

function isPracticeBoard(startTime: number, endTime: number): boolean {
  return endTime - startTime > PRACTICE_BOARD_MS
}

/**
 * Turns a contests/upcoming answer into contests. The started/ended flags are left alone: the
 * times say the same, and stay right when a recorded answer is replayed later.
 */
export function parseHackerrank(
  payload: unknown,
  now: number,
  options: ParseOptions = {},
): AdapterResult<HackerrankContest> {
  const list = readEnvelope(ID, listSchema, payload, 'contests/upcoming answer has no models')
  const out = new ResultCollector<HackerrankContest>(now, options)
  list.models.forEach((item, index) => {
    const ref = `hackerrank contest ${stringField(item, 'slug') ?? `#${index}`}`
    const parsed = modelSchema.safeParse(item)
    if (!parsed.success) return out.skipInvalid(ref, parsed.error)
    const model = parsed.data
    const startTime = model.epoch_starttime * 1000
    const endTime = model.epoch_endtime === null ? null : model.epoch_endtime * 1000
    // A board that never closes, or stays open for years, is practice rather than a contest.
    if (endTime === null || isPracticeBoard(startTime, endTime)) return out.markUnsupported()
    out.keepUnlessEnded(toContest(model, startTime, endTime))
  })
  return out.result()
}

function toContest(model: HackerrankModel, startTime: number, endTime: number): HackerrankContest {
  return {
    platform: ID,
    // The slug, not the numeric id: it is what the contest's page and clist's href carry.
    platformId: model.slug,
    name: model.name,
    type: 'OTHER',
    startTime,
    endTime,
    websiteUrl: `${SITE}/contests/${model.slug}`,
    platformMetadata: {
      contestId: model.id,
      ...(model.rated !== undefined && { rated: model.rated }),
    },
  }
}

/**
 * GET {HACKERRANK_URL}/rest/contests/upcoming?limit=100. One page: a hundred is several times
 * what HackerRank lists as upcoming and running at once.
 */
export async function fetchHackerrank(
  request: SourceRequest,
): Promise<AdapterResult<HackerrankContest>> {
  const answer = await fetchJson(ID, request, `${LIST_PATH}?limit=100`)
  return parseHackerrank(answer, request.now, request)
}

// clist links the contest's page, with or without www.
const CLIST_HREF = /^https?:\/\/(?:www\.)?hackerrank\.com\/contests\/([A-Za-z0-9][\w-]*)(?:[/?#]|$)/

export const hackerrank = definePlatform({
  id: ID,
  name: 'HackerRank',
  homeUrl: SITE,
  contestsUrl: `${SITE}/contests`,
  types: HACKERRANK_TYPES,
  typeNames: { OTHER: 'Other' },
  source: {
    setting: 'HACKERRANK_URL',
    defaultUrl: SITE,
    fetch: fetchHackerrank,
    fixtures: [
      {
        method: 'GET',
        path: LIST_PATH,
        file: 'fixtures/contests-upcoming.json',
        contentType: 'application/json',
        // starttime, get_starttimeiso and the like are ISO with Z and move by themselves.
        shift: shiftJson({ seconds: ['epoch_starttime', 'epoch_endtime'] }),
      },
    ],
  },
  clist: {
    resource: 'hackerrank.com',
    contest(entry) {
      const slug = CLIST_HREF.exec(entry.href)?.[1]
      if (!slug || isPracticeBoard(entry.startTime, entry.endTime)) return undefined
      return { platformId: slug, type: 'OTHER' }
    },
  },
})

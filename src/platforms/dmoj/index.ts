// DMOJ: the API v2 contest list (every contest ever, paged) turned into the contests not yet over.
import { z } from 'zod'
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

const SITE = 'https://dmoj.ca'

/**
 * DMOJ serves 1000 contests a page in creation order, so the newest (upcoming) ones are on the
 * last page and every page has to be read. Ten pages is 10,000 contests, several times what the
 * site has held in its first decade; the bound only stops a broken total_pages from making us
 * walk the whole site, and ten requests stay far inside its 90 requests a minute.
 */
export const DMOJ_MAX_PAGES = 10

// total_pages is left out when DMOJ pages without counting (has_more alone then tells).
const pageSchema = z.object({
  data: z.object({
    objects: z.array(z.unknown()),
    total_pages: z.number().int().nonnegative().optional(),
    has_more: z.boolean().optional(),
  }),
})
type DmojPage = z.infer<typeof pageSchema>['data']

// Django writes aware datetimes in ISO 8601 with an offset, in UTC ("2026-11-28T17:00:00+00:00").
const isoWithOffset = z.iso.datetime({ offset: true })

const contestSchema = z
  .object({
    key: z.string().regex(/^[a-z0-9]+$/),
    name: z.string().trim().min(1),
    start_time: isoWithOffset,
    end_time: isoWithOffset,
    // Seconds each participant gets inside the window (10800.0); null when the window is the
    // contest.
    time_limit: z.number().positive().nullable(),
    is_rated: z.boolean(),
    rate_all: z.boolean().optional(),
    tags: z.array(z.string()),
  })
  .transform((c, ctx) => {
    const startTime = Date.parse(c.start_time)
    const endTime = Date.parse(c.end_time)
    if (endTime <= startTime) {
      ctx.addIssue({ code: 'custom', message: 'end_time is not after start_time' })
      return z.NEVER
    }
    return { ...c, startTime, endTime }
  })

const TYPES = ['RATED', 'UNRATED'] as const
type DmojType = (typeof TYPES)[number]
type DmojContest = SourceContest<'dmoj', DmojType>

/** Validates one page of /contests; a page without its objects list throws. */
function readPage(payload: unknown): DmojPage {
  return readEnvelope('dmoj', pageSchema, payload, 'contests answer has no data.objects list').data
}

/** Turns the answers of pages 1, 2, ... of /contests into contests; a broken page throws. */
export function parseDmoj(
  pages: readonly unknown[],
  now: number,
  options: ParseOptions = {},
): AdapterResult<DmojContest> {
  return collect(pages.map(readPage), now, options)
}

function collect(
  pages: readonly DmojPage[],
  now: number,
  options: ParseOptions,
): AdapterResult<DmojContest> {
  const out = new ResultCollector<DmojContest>(now, options)
  pages.forEach((page, pageIndex) =>
    page.objects.forEach((item, index) => {
      const ref = `dmoj contest ${stringField(item, 'key') ?? `#${index} of page ${pageIndex + 1}`}`
      const parsed = contestSchema.safeParse(item)
      if (!parsed.success) return out.skipInvalid(ref, parsed.error)
      // The list holds every contest since 2014; only the ones not yet over are news.
      out.keepUnlessEnded(toContest(parsed.data))
    }),
  )
  return out.result()
}

function toContest(contest: z.infer<typeof contestSchema>): DmojContest {
  return {
    platform: 'dmoj',
    platformId: contest.key,
    name: contest.name,
    type: contest.is_rated ? 'RATED' : 'UNRATED',
    startTime: contest.startTime,
    endTime: contest.endTime,
    websiteUrl: `${SITE}/contest/${contest.key}`,
    platformMetadata: {
      timeLimitSeconds: contest.time_limit,
      tags: contest.tags,
      ...(contest.rate_all !== undefined && { rateAll: contest.rate_all }),
    },
  }
}

/**
 * GET {DMOJ_API_URL}/contests?page=1, 2, ... up to total_pages (at most DMOJ_MAX_PAGES), one
 * after another to stay gentle with the rate limit. A failed page fails the whole fetch: the
 * last pages hold the upcoming contests, so a partial list would look like cancellations.
 */
export async function fetchDmoj(request: SourceRequest): Promise<AdapterResult<DmojContest>> {
  const pages: DmojPage[] = []
  for (let number = 1; number <= DMOJ_MAX_PAGES; number++) {
    const page = readPage(await fetchJson('dmoj', request, `/contests?page=${number}`))
    pages.push(page)
    if (!hasNextPage(page, number)) break
  }
  return collect(pages, request.now, request)
}

function hasNextPage(page: DmojPage, number: number): boolean {
  return page.total_pages !== undefined ? number < page.total_pages : page.has_more === true
}

export const dmoj = definePlatform({
  id: 'dmoj',
  name: 'DMOJ',
  homeUrl: SITE,
  contestsUrl: `${SITE}/contests/`,
  types: TYPES,
  typeNames: { RATED: 'Rated', UNRATED: 'Unrated' },
  source: {
    setting: 'DMOJ_API_URL',
    defaultUrl: 'https://dmoj.ca/api/v2',
    fetch: fetchDmoj,
    fixtures: [1, 2].map((number) => ({
      method: 'GET' as const,
      path: `/contests?page=${number}`,
      file: `fixtures/contests-page-${number}.json`,
      contentType: 'application/json',
      shift: shiftJson(),
    })),
  },
  clist: {
    resource: 'dmoj.ca',
    contest(entry) {
      const key = /^https?:\/\/dmoj\.ca\/contest\/([a-z0-9]+)\/?(?:[?#].*)?$/.exec(entry.href)?.[1]
      if (!key) return undefined
      // clist names a rated DMOJ contest "<name>. Rated", the only trace of is_rated it keeps.
      return { platformId: key, type: /\.\s*Rated$/.test(entry.event) ? 'RATED' : 'UNRATED' }
    },
  },
})

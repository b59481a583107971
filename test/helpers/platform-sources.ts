// What the platform modules' tests (src/platforms/<id>/<id>.test.ts) share: reading a source's
// result, expecting its failures, fetching from the stand-in and feeding its clist mapping.
import { expect } from 'vitest'
import type { SourceContest } from '../../src/platforms/contest.ts'
import type { ClistContest, FixtureRoute, PlatformModule } from '../../src/platforms/define.ts'
import { RECORDED_AT } from '../../src/platforms/fixture-time.ts'
import type { AdapterResult, FetchFn, SourceRequest } from '../../src/platforms/source.ts'
import { UpstreamError, type UpstreamErrorKind } from '../../src/platforms/upstream.ts'
import type { RecordedRequest } from '../stand-ins/providers.ts'
import { standIn, standInUrl } from './stand-in.ts'

export const WEEK_MS = 7 * 24 * 3600_000

// Nothing listens on port 9 (discard), so the connection is refused.
export const CLOSED_PORT = 'http://127.0.0.1:9'

/** The runtime's own fetch, which reaches the stand-in over loopback. */
export const realFetch: FetchFn = (input, init) => fetch(input, init)

/** A request of a source to the stand-in under `prefix` ("/atcoder"), at the recorded moment. */
export function standInRequest(prefix: string, fields: Partial<SourceRequest> = {}): SourceRequest {
  return { baseUrl: `${standInUrl}${prefix}`, fetchFn: realFetch, now: RECORDED_AT, ...fields }
}

/** What a well-formed answer listing nothing parses to: no contests, and nothing wrong either. */
export const EMPTY_RESULT: AdapterResult = { contests: [], skipped: 0, unsupported: 0, errors: [] }

/** The contest of `result` with `platformId`; fails the test when there is none. */
export function byId<C extends SourceContest>(result: AdapterResult<C>, platformId: string): C {
  const contest = result.contests.find((c) => c.platformId === platformId)
  if (!contest) throw new Error(`no contest ${platformId} in the result`)
  return contest
}

export function ids(result: AdapterResult): string[] {
  return result.contests.map((c) => c.platformId)
}

/**
 * Scripts the stand-in to answer `method` requests under `pathPrefix` with a 200 for each of
 * `bodies` in turn (the last repeats), sent as `contentType` when given.
 */
export function scriptOk(
  method: 'GET' | 'POST',
  pathPrefix: string,
  bodies: unknown[],
  contentType?: string,
) {
  const headers = contentType ? { 'content-type': contentType } : undefined
  const responses = bodies.map((body) => ({ status: 200, body, headers }))
  return standIn.script({ method, pathPrefix, responses })
}

/** The paths (with their queries) of the requests the stand-in received under `prefix`. */
export async function requestPaths(prefix: string): Promise<string[]> {
  return (await standIn.requests(prefix)).map((r) => r.path)
}

/**
 * A request a source sent: on `path` (with its query), by `method` when given, naming the
 * service in its User-Agent.
 */
export function expectSent(request: RecordedRequest, path: string, method?: string) {
  if (method) expect(request.method).toBe(method)
  expect(request.path).toBe(path)
  expect(request.headers['user-agent']).toContain('ContestAlertService')
}

/** The one request the stand-in received under `prefix`, checked by expectSent. */
export async function expectOneRequest(
  prefix: string,
  path: string,
  method: string,
): Promise<RecordedRequest> {
  const requests = await standIn.requests(prefix)
  expect(requests).toHaveLength(1)
  expectSent(requests[0], path, method)
  return requests[0]
}

/**
 * Runs `run` (a promise, or a function that may throw or reject), expecting an UpstreamError (of
 * `kind` when given), and returns it for closer checks.
 */
export async function upstreamFailure(
  run: Promise<unknown> | (() => unknown),
  kind?: UpstreamErrorKind,
): Promise<UpstreamError> {
  const promise = typeof run === 'function' ? Promise.resolve().then(run) : run
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(UpstreamError)
  if (kind) expect((error as UpstreamError).kind).toBe(kind)
  return error as UpstreamError
}

/**
 * Scripts a 503 answer with `body` under `pathPrefix`, and expects `fetch` to throw a status
 * error carrying that status.
 */
export async function expectStatusError(
  pathPrefix: string,
  body: unknown,
  fetch: () => Promise<unknown>,
  headers?: Record<string, string>,
): Promise<UpstreamError> {
  await standIn.script({ pathPrefix, responses: [{ status: 503, body, headers }] })
  const error = await upstreamFailure(fetch(), 'status')
  expect(error.status).toBe(503)
  return error
}

/** Contests well formed for `module`: its id and types, times in order, trimmed, https, unique. */
export function expectWellFormed(module: PlatformModule, contests: readonly SourceContest[]) {
  expect(contests.length).toBeGreaterThan(0)
  for (const c of contests) {
    expect(c.platform).toBe(module.id)
    expect(module.types).toContain(c.type)
    expect(c.endTime).toBeGreaterThan(c.startTime)
    expect(c.name.trim()).toBe(c.name)
    expect(c.websiteUrl).toMatch(/^https:\/\//)
  }
  expect(new Set(contests.map((c) => c.platformId)).size).toBe(contests.length)
}

/** A recorded JSON fixture as `route` serves it `shiftMs` later, parsed back. */
export function shiftedJson(route: FixtureRoute, recorded: unknown, shiftMs: number) {
  return JSON.parse(route.shift(JSON.stringify(recorded), shiftMs))
}

/** `contests` with their times moved by `shiftMs`: what a fixture shifted by as much must give. */
export function movedBy<C extends SourceContest>(contests: readonly C[], shiftMs: number): C[] {
  return contests.map((c) => ({
    ...c,
    startTime: c.startTime + shiftMs,
    endTime: c.endTime + shiftMs,
  }))
}

/** A clist.by entry for a clist mapping: `href` and `event` as given, the rest filler. */
export function clistEntry(
  href: string,
  event: string,
  fields: Partial<ClistContest> = {},
): ClistContest {
  return { id: 1, event, href, startTime: 0, endTime: 1, ...fields }
}

/** What a clist mapping must give for a contest the own source read, to land on the same row. */
export function idAndType(contest: SourceContest) {
  return { platformId: contest.platformId, type: contest.type }
}

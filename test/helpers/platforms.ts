// Serves recorded platform payloads from the stand-in at the paths the adapters call.
import atcoder from '../fixtures/atcoder-contests.html?raw'
import codechef from '../fixtures/codechef-contests-all.json'
import codeforces from '../fixtures/codeforces-contest-list.json'
import leetcode from '../fixtures/leetcode-graphql.json'
import { standIn } from './stand-in.ts'
import type { Platform } from '../../src/contests/schemas.ts'

/** The moment the fixtures were recorded around; tests that sync them pass it as `now`. */
export const RECORDED_AT = Date.UTC(2026, 10, 22, 12, 0, 0)

export const FIXTURES: Record<Platform, unknown> = { codeforces, leetcode, codechef, atcoder }

const PATHS: Record<Platform, { method: string; pathPrefix: string }> = {
  codeforces: { method: 'GET', pathPrefix: '/codeforces/api/contest.list' },
  leetcode: { method: 'POST', pathPrefix: '/leetcode/graphql' },
  codechef: { method: 'GET', pathPrefix: '/codechef/api/list/contests/all' },
  atcoder: { method: 'GET', pathPrefix: '/atcoder/contests' },
}

/** Makes `platform` answer with `body` (the recorded payload unless given) and `status`. */
export function servePlatform(
  platform: Platform,
  body: unknown = FIXTURES[platform],
  status = 200,
) {
  return standIn.script({ ...PATHS[platform], responses: [{ status, body }] })
}

export async function serveAllPlatforms() {
  for (const platform of Object.keys(PATHS) as Platform[]) await servePlatform(platform)
}

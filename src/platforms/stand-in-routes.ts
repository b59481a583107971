// Where the loopback stand-ins (tests, npm start, npm run seed) serve each platform's recorded
// answers: one path per upstream var, so platforms sharing a var (codeforces and codeforces-gym)
// share a base and are told apart by their query, as upstream.
import type { FixtureRoute, UpstreamSetting } from './define.ts'
import { PLATFORM_MODULES } from './registry.ts'

/** "CODEFORCES_API_URL" -> "/codeforces-api" */
export function standInPath(setting: UpstreamSetting): string {
  return `/${setting.replace(/_URL$/, '').toLowerCase().replace(/_/g, '-')}`
}

/** Every upstream var pointed at the stand-in at `origin`. */
export function standInUpstreams(origin: string): Record<string, string> {
  return Object.fromEntries(
    PLATFORM_MODULES.flatMap((m) =>
      m.source ? [[m.source.setting, `${origin}${standInPath(m.source.setting)}`]] : [],
    ),
  )
}

export interface StandInRoute extends FixtureRoute {
  platform: string
  /** The recorded file from the project's root: "src/platforms/<id>/fixtures/...". */
  filePath: string
  pathname: string
  query: Record<string, string>
}

/**
 * Every recorded answer, at the stand-in path the platform's source will ask: the source's own,
 * then its results' (which are asked under the same base).
 */
export function standInRoutes(): StandInRoute[] {
  return PLATFORM_MODULES.flatMap((m) =>
    [...(m.source?.fixtures ?? []), ...(m.source ? (m.results?.fixtures ?? []) : [])].map(
      (route) => {
        const url = new URL(route.path, 'http://stand-in')
        return {
          ...route,
          platform: m.id,
          filePath: `src/platforms/${m.id}/${route.file}`,
          pathname: `${standInPath(m.source!.setting)}${url.pathname}`.replace(/\/$/, ''),
          query: Object.fromEntries(url.searchParams),
        }
      },
    ),
  )
}

/**
 * The route answering a request, if any: the path matches, its query holds the route's, and its
 * JSON body holds the route's body fields (a GraphQL endpoint answers every query on one path).
 */
export function matchStandInRoute(
  routes: readonly StandInRoute[],
  method: string,
  url: URL,
  body = '',
): StandInRoute | undefined {
  const pathname = url.pathname.replace(/\/$/, '')
  let json: unknown
  return routes.find((r) => {
    if (r.method !== method || r.pathname !== pathname) return false
    if (!Object.entries(r.query).every(([k, v]) => url.searchParams.get(k) === v)) return false
    if (!r.body) return true
    json ??= parseBody(body)
    return holds(json, r.body)
  })
}

function parseBody(body: string): unknown {
  try {
    return JSON.parse(body)
  } catch {
    return null
  }
}

/** Whether `value` holds every field of `wanted`, nested objects field by field. */
function holds(value: unknown, wanted: unknown): boolean {
  if (wanted === null || typeof wanted !== 'object') return value === wanted
  if (value === null || typeof value !== 'object') return false
  return Object.entries(wanted).every(([k, v]) => holds((value as Record<string, unknown>)[k], v))
}

export { RECORDED_AT } from './fixture-time.ts'
export { answerAliasedQuery } from './graphql-aliases.ts'

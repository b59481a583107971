// Test-side handle on the provider stand-in: its base URL, its recorded requests and its script.
import { env } from 'cloudflare:test'
import type { RecordedRequest, ScriptedResponse } from '../stand-ins/providers.ts'
import type { AcceptedEmail } from '../stand-ins/resend.ts'

export const standInUrl = env.STAND_IN_URL
/** The stand-in's origin, without this worker's space: what a URL's origin is compared with. */
export const standInOrigin = new URL(standInUrl).origin

/** The path of a stand-in URL within this worker's space, as the stand-in records it. */
export function recordedPath(url: string): string {
  const path = new URL(url).pathname
  const space = new URL(standInUrl).pathname
  return path.startsWith(`${space}/`) ? path.slice(space.length) : path
}

async function control(action: string, init?: RequestInit) {
  const res = await fetch(`${standInUrl}/__control/${action}`, init)
  if (!res.ok) throw new Error(`stand-in control ${action} failed: ${res.status}`)
  return res.json()
}

export const standIn = {
  /** Forgets recorded requests, scripted rules and Resend's emails and idempotency keys. */
  reset: () => control('reset', { method: 'POST' }),
  /** Requests the stand-in received whose path starts with `pathPrefix`. */
  requests: (pathPrefix = '/') =>
    control(`requests?pathPrefix=${encodeURIComponent(pathPrefix)}`) as Promise<RecordedRequest[]>,
  /**
   * Emails the Resend stand-in created, oldest first: a replayed idempotent answer adds none,
   * and scripted answers are not Resend's, so they add none either.
   */
  emails: () => control('emails') as Promise<AcceptedEmail[]>,
  /**
   * Answers matching requests with `responses` in turn (the last one repeats); with none, the
   * service's own answer, failing `failRate` of the requests with `failure` either way: drawn
   * from `seed` when given (and per set of `labels` a request carries, providers.ts), else at
   * random.
   */
  script: (rule: {
    method?: string
    pathPrefix: string
    /** Query parameters the request must carry, to tell pages (or gym=true) apart. */
    query?: Record<string, string>
    /** JSON body fields the request must hold, to tell GraphQL queries on one path apart. */
    body?: Record<string, unknown>
    responses: ScriptedResponse[]
    failRate?: number
    failure?: ScriptedResponse
    seed?: number
    labels?: Record<string, string>
  }) => control('script', { method: 'POST', body: JSON.stringify(rule) }),
}

// Test-side handle on the provider stand-in: its base URL, its recorded requests and its script.
import { env } from 'cloudflare:test'
import type { RecordedRequest, ScriptedResponse } from '../stand-ins/providers.ts'

export const standInUrl = env.STAND_IN_URL

async function control(action: string, init?: RequestInit) {
  const res = await fetch(`${standInUrl}/__control/${action}`, init)
  if (!res.ok) throw new Error(`stand-in control ${action} failed: ${res.status}`)
  return res.json()
}

export const standIn = {
  /** Forgets recorded requests and scripted rules. */
  reset: () => control('reset', { method: 'POST' }),
  /** Requests the stand-in received whose path starts with `pathPrefix`. */
  requests: (pathPrefix = '/') =>
    control(`requests?pathPrefix=${encodeURIComponent(pathPrefix)}`) as Promise<RecordedRequest[]>,
  /** Answers matching requests with `responses` in turn (the last one repeats). */
  script: (rule: {
    method?: string
    pathPrefix: string
    responses: ScriptedResponse[]
    failRate?: number
    failure?: ScriptedResponse
  }) => control('script', { method: 'POST', body: JSON.stringify(rule) }),
}

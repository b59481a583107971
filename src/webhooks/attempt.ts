// One delivery attempt over HTTP: 10 seconds at most, no redirects followed, the answer classified.
import type { AttemptResult } from './retry-schedule.ts'

export type WebhookFetchFn = (url: string, init: RequestInit) => Promise<Response>

export const ATTEMPT_TIMEOUT_MS = 10_000

export async function attemptDelivery(
  fetchFn: WebhookFetchFn,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<AttemptResult> {
  let res: Response
  try {
    res = await fetchFn(url, {
      method: 'POST',
      headers,
      body,
      // A redirect could lead to an address the target check never saw.
      redirect: 'manual',
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    })
  } catch (err) {
    const timedOut = err instanceof Error && err.name === 'TimeoutError'
    const error = timedOut
      ? `Timed out after ${ATTEMPT_TIMEOUT_MS / 1000} s`
      : `Request failed: ${err instanceof Error ? err.message : String(err)}`
    return { kind: 'failure', error, retryable: true }
  }
  // Only the status matters; the connection is freed without reading what the receiver sent.
  await res.body?.cancel().catch(() => undefined)
  const { status } = res
  if (status >= 200 && status < 300) return { kind: 'success', status }
  if (status === 410) return { kind: 'gone', status }
  if (status >= 300 && status < 400) {
    return {
      kind: 'failure',
      status,
      error: `Redirects are not followed (HTTP ${status})`,
      retryable: true,
    }
  }
  return { kind: 'failure', status, error: `HTTP ${status}`, retryable: true }
}

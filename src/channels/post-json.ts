// One JSON POST to a provider, as every chat channel makes it: bounded in time, and redirects not
// followed (a redirect could lead to an address the target check never saw). A failure to reach
// the provider comes back as the error, for the caller to name by its kind only: the URL may hold
// a secret (a webhook's token), and so may the error's message.

const SEND_TIMEOUT_MS = 10_000

export function postJson(
  url: string | URL,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response | Error> {
  return sendJson('POST', url, body, headers)
}

/** The same with another method: PATCH to edit a message a provider made. */
export async function sendJson(
  method: 'POST' | 'PATCH',
  url: string | URL,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response | Error> {
  try {
    return await fetch(url, {
      method,
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      redirect: 'manual',
    })
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error))
  }
}

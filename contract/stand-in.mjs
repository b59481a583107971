// The provider stand-in (test/stand-ins/providers.ts, the one the vitest suite uses) for the
// contract suite. Node 20 cannot import TypeScript, so it is bundled with its imports (the Google
// stand-in, jose) first (scripts/lib/import-typescript.mjs): providers.ts stays the single source
// of the stand-in's behaviour. The handle talks to it through its /__control endpoints.
import { fileURLToPath } from 'node:url'
import { importTypeScript } from '../scripts/lib/import-typescript.mjs'

const SOURCE = fileURLToPath(new URL('../test/stand-ins/providers.ts', import.meta.url))

/** Starts the stand-in on a free loopback port. */
export async function startStandIn() {
  const { startProviderStandIn } = await importTypeScript(SOURCE)
  const { server, url } = await startProviderStandIn()

  async function control(action, init) {
    const res = await fetch(`${url}/__control/${action}`, init)
    if (!res.ok) throw new Error(`stand-in control ${action} failed: ${res.status}`)
    return res.json()
  }

  return {
    url,
    /** Requests received whose path starts with `pathPrefix`, oldest first. */
    requests: (pathPrefix = '/') =>
      control(`requests?pathPrefix=${encodeURIComponent(pathPrefix)}`),
    /** Answers matching requests with `responses` in turn (the last one repeats). */
    script: (rule) => control('script', { method: 'POST', body: JSON.stringify(rule) }),
    /** Mails the Resend stand-in accepted or refused for `address`, oldest first. */
    async mailsTo(address) {
      const sent = await control(`requests?pathPrefix=${encodeURIComponent('/resend/emails')}`)
      return sent
        .map((r) => ({ at: r.at, headers: r.headers, message: JSON.parse(r.body) }))
        .filter(({ message }) => [message.to].flat().includes(address))
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(resolve)
      }),
  }
}

// Google's sign-in endpoints on loopback for local runs (`npm start`, `npm run start:deno`) and the
// browser tests: authorization (approves at once and redirects back with a code), token (checks
// the client and the PKCE verifier, returns an RS256 ID token with the flow's nonce) and the JWKS.
// The behaviour is test/stand-ins/google.ts, the vitest suite's own stand-in: Node 20 cannot import
// TypeScript, so it is bundled first (scripts/lib/import-typescript.mjs), as the contract suite does.
// Run alone: `node scripts/google-stand-in.mjs` (GOOGLE_STAND_IN_PORT, else 8790).
import { createServer } from 'node:http'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { importTypeScript } from './lib/import-typescript.mjs'

export const DEFAULT_GOOGLE_STAND_IN_PORT = 8790

const SOURCE = fileURLToPath(new URL('../test/stand-ins/google.ts', import.meta.url))

/** The OAuth client the stand-in knows (test/stand-ins/google-client.ts), as settings. */
export const GOOGLE_STAND_IN_CLIENT = {
  GOOGLE_CLIENT_ID: 'stand-in-client.apps.googleusercontent.com',
  GOOGLE_CLIENT_SECRET: 'stand-in-google-client-secret',
}

/** The settings that point the service at a stand-in listening on `url`. */
export function googleStandInSettings(url) {
  return {
    ...GOOGLE_STAND_IN_CLIENT,
    GOOGLE_AUTH_URL: `${url}/google/auth`,
    GOOGLE_TOKEN_URL: `${url}/google/token`,
    GOOGLE_JWKS_URL: `${url}/google/jwks`,
  }
}

async function readBody(req) {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * Starts the stand-in on `port` of 127.0.0.1 (0: any free port). `POST /__control/google` with a
 * profile (`{sub, email, email_verified, name}`) sets the claims of the next sign-in; without one
 * every sign-in is google-user@example.test.
 */
export async function startGoogleStandIn({ port = 0 } = {}) {
  const { createGoogleStandIn } = await importTypeScript(SOURCE)
  const google = createGoogleStandIn()
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in')
    const body = await readBody(req)
    const send = ({ status, body: payload, headers }) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers })
      res.end(payload === undefined ? '' : JSON.stringify(payload))
    }
    if (req.method === 'POST' && url.pathname === '/__control/google') {
      google.script(JSON.parse(body))
      return send({ status: 200, body: { ok: true } })
    }
    if (req.method === 'POST' && url.pathname === '/__control/reset') {
      google.reset()
      return send({ status: 200, body: { ok: true } })
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
    )
    send(await google.respond(req.method ?? 'GET', url, headers, body))
  })
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  const url = `http://127.0.0.1:${server.address().port}`
  return {
    url,
    settings: googleStandInSettings(url),
    /** The claims of the next sign-in. */
    async script(profile) {
      const res = await fetch(`${url}/__control/google`, {
        method: 'POST',
        body: JSON.stringify(profile),
      })
      if (!res.ok) throw new Error(`Google stand-in control answered ${res.status}`)
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(resolve)
      }),
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.GOOGLE_STAND_IN_PORT || DEFAULT_GOOGLE_STAND_IN_PORT)
  const { url } = await startGoogleStandIn({ port })
  console.log(`[google] stand-in at ${url} (POST ${url}/__control/google to choose the next user)`)
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0))
}

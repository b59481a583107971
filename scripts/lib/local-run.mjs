// What `npm start` and `npm run start:deno` share: a .dev.vars with a safe JWT_SECRET, its values,
// the intelligence service (a local grpc-web stand-in unless INTELLIGENCE_URL is set) and Google's
// sign-in (a loopback stand-in, which the settings .dev.vars is given point at).
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import {
  DEFAULT_GOOGLE_STAND_IN_PORT,
  GOOGLE_STAND_IN_CLIENT,
  googleStandInSettings,
  startGoogleStandIn,
} from '../google-stand-in.mjs'
import { startLocalIntelligence } from '../intelligence-stand-in.mjs'
import { devVarsWithSecret } from './dev-secret.mjs'

/**
 * Writes .dev.vars from .dev.vars.example on first run (never the example's JWT_SECRET: a token
 * forged with a published secret would be accepted) and returns its text; exits when it is unusable.
 */
export function prepareDevVars() {
  const devVars = devVarsWithSecret(
    existsSync('.dev.vars') ? readFileSync('.dev.vars', 'utf8') : undefined,
    readFileSync('.dev.vars.example', 'utf8'),
    () => randomBytes(32).toString('base64url'),
  )
  if (devVars.action === 'refused') {
    console.error(devVars.message)
    process.exit(1)
  }
  const google = withGoogleStandIn(devVars.text)
  if (devVars.action !== 'kept' || google.added) {
    writeFileSync('.dev.vars', google.text, { mode: 0o600 })
  }
  if (google.added) {
    console.log(
      'Added Sign in with Google settings to .dev.vars, pointing at a local stand-in for Google.',
    )
  }
  if (devVars.action === 'created') {
    console.log(
      'Created .dev.vars from .dev.vars.example with a random JWT_SECRET (not committed).',
    )
  } else if (devVars.action === 'replaced') {
    console.log(
      'Replaced the published example JWT_SECRET in .dev.vars with a random one: sign in again, ' +
        'and rotate the secrets of local webhook endpoints (they were sealed under the old one).',
    )
  } else if (devVars.action === 'added') {
    console.log('Added a random JWT_SECRET to .dev.vars.')
  }
  return google.text
}

/** The `NAME=value` lines of a .dev.vars text (quotes around a value removed; # comments skipped). */
export function parseDevVars(text) {
  const vars = {}
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/.exec(line)
    if (!match) continue
    vars[match[1]] = match[2].trim().replace(/^(["'])(.*)\1$/, '$2')
  }
  return vars
}

/**
 * The intelligence service's URL: INTELLIGENCE_URL from the environment, else from .dev.vars,
 * else a grpc-web stand-in started here. `fromEnvironment` says whether the caller must pass it on.
 */
export async function intelligenceUrl(devVars) {
  if (process.env.INTELLIGENCE_URL) {
    return { url: process.env.INTELLIGENCE_URL, fromEnvironment: true }
  }
  if (devVars.INTELLIGENCE_URL) return { url: devVars.INTELLIGENCE_URL, fromEnvironment: false }
  const { url } = await startLocalIntelligence()
  return { url, fromEnvironment: true }
}

const STAND_IN_ORIGIN = `http://127.0.0.1:${DEFAULT_GOOGLE_STAND_IN_PORT}`

/**
 * Sign in with Google for a local run: unless .dev.vars names a Google client already (an empty
 * GOOGLE_CLIENT_ID= too, which keeps Google off), the stand-in's client and endpoints are added.
 */
export function withGoogleStandIn(text) {
  if (/^\s*GOOGLE_CLIENT_ID\s*=/m.test(text)) return { text, added: false }
  const lines = Object.entries(googleStandInSettings(STAND_IN_ORIGIN)).map(([k, v]) => `${k}=${v}`)
  const block = [
    '# Sign in with Google: `npm start` runs a loopback stand-in for Google at these addresses',
    '# (scripts/google-stand-in.mjs); everyone signs in as google-user@example.test unless a POST to',
    '# /__control/google chooses another. Google returns the browser to APP_URL, so open the app',
    '# there. For the real Google set your own client and drop the URLs; GOOGLE_CLIENT_ID= turns it off.',
    ...lines,
  ]
  const separator = text === '' || text.endsWith('\n') ? '' : '\n'
  return { text: `${text}${separator}${block.join('\n')}\n`, added: true }
}

/**
 * Starts the Google stand-in when the settings point at one on loopback (the stand-in's client and
 * a 127.0.0.1 authorization URL); a port already taken means another local run serves it.
 */
export async function googleStandIn(devVars) {
  const vars = { ...devVars, ...process.env }
  if (vars.GOOGLE_CLIENT_ID !== GOOGLE_STAND_IN_CLIENT.GOOGLE_CLIENT_ID) return undefined
  let auth
  try {
    auth = new URL(vars.GOOGLE_AUTH_URL ?? '')
  } catch {
    return undefined
  }
  if (auth.hostname !== '127.0.0.1' || auth.protocol !== 'http:') return undefined
  try {
    const started = await startGoogleStandIn({ port: Number(auth.port || 80) })
    console.log(`[google] sign-in stand-in at ${started.url}`)
    return started
  } catch (err) {
    if (err?.code !== 'EADDRINUSE') throw err
    console.warn(`[google] ${auth.origin} is in use; leaving Google to whatever answers there`)
    return undefined
  }
}

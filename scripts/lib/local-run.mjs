// What `npm start` and `npm run start:deno` share: a .dev.vars with a safe JWT_SECRET, its values,
// and the intelligence service (a local grpc-web stand-in unless INTELLIGENCE_URL is set).
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
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
  if (devVars.action !== 'kept') writeFileSync('.dev.vars', devVars.text, { mode: 0o600 })
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
  return devVars.text
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

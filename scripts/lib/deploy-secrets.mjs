// Which Worker secrets a deploy sets: the generated ones (JWT_SECRET, the VAPID key pair, the
// Telegram webhook secret) when absent, and the provider keys given in the environment or
// .deploy.vars when absent; a secret already set is replaced only when asked (--replace-secret).
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { EXAMPLE_SECRETS } from './dev-secret.mjs'

const MIN_JWT_SECRET_LENGTH = 32

/** A fresh VAPID key pair as the Worker reads it: the P-256 point and scalar, base64url. */
export function vapidKeyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const pub = publicKey.export({ format: 'jwk' })
  const point = Buffer.concat([
    Buffer.from([4]),
    Buffer.from(pub.x, 'base64url'),
    Buffer.from(pub.y, 'base64url'),
  ])
  return {
    VAPID_PUBLIC_KEY: point.toString('base64url'),
    VAPID_PRIVATE_KEY: privateKey.export({ format: 'jwk' }).d,
  }
}

const GENERATORS = {
  JWT_SECRET: () => ({ JWT_SECRET: randomBytes(48).toString('base64url') }),
  VAPID_PUBLIC_KEY: vapidKeyPair,
  VAPID_PRIVATE_KEY: vapidKeyPair,
  // Telegram takes 1-256 of A-Z a-z 0-9 _ -, which base64url is.
  TELEGRAM_WEBHOOK_SECRET: () => ({
    TELEGRAM_WEBHOOK_SECRET: randomBytes(32).toString('base64url'),
  }),
}

const decodesTo = (text, length, first) => {
  const bytes = Buffer.from(text, 'base64url')
  return (
    /^[A-Za-z0-9_-]+$/.test(text) &&
    bytes.length === length &&
    (first === undefined || bytes[0] === first)
  )
}

/** What is wrong with a provided value, or undefined. */
export function invalidValue(name, value) {
  if (name === 'JWT_SECRET') {
    if (EXAMPLE_SECRETS.includes(value)) return 'is a published example value'
    if (value.length < MIN_JWT_SECRET_LENGTH) {
      return `must be at least ${MIN_JWT_SECRET_LENGTH} characters long`
    }
  }
  if (name === 'VAPID_PUBLIC_KEY' && !decodesTo(value, 65, 4)) {
    return 'must be a base64url P-256 point (65 bytes, starting 0x04)'
  }
  if (name === 'VAPID_PRIVATE_KEY' && !decodesTo(value, 32)) {
    return 'must be a base64url 32-byte P-256 scalar'
  }
  if (name === 'TELEGRAM_WEBHOOK_SECRET' && !/^[A-Za-z0-9_-]{1,256}$/.test(value)) {
    return 'may only hold A-Z, a-z, 0-9, _ and - (1-256 characters)'
  }
  return undefined
}

/**
 * The secrets to set. `existing` are the names the Worker has, `provided` the values given (only
 * names the Worker reads), `replace` the names the caller asked to replace, `wantTelegramSecret`
 * whether a bot token is (or will be) set. Answers `{ values, generated, kept, problems }`:
 * values to set (name -> value), which of them were generated, which provided names were left as
 * they are, and what is wrong with the input.
 */
export function planSecrets({ existing, provided, replace = [], wantTelegramSecret }) {
  const has = new Set(existing)
  const asked = new Set(replace)
  const pair = ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY']
  // The two halves of the key pair are replaced together.
  if (pair.some((n) => asked.has(n))) pair.forEach((n) => asked.add(n))
  const problems = []
  for (const name of asked) {
    if (!(name in provided) && !(name in GENERATORS)) {
      problems.push(`--replace-secret ${name}: no value for it in the environment or the vars file`)
    }
  }
  for (const [name, value] of Object.entries(provided)) {
    const wrong = invalidValue(name, value)
    if (wrong) problems.push(`${name} ${wrong}`)
  }
  if (pair.filter((n) => n in provided).length === 1) {
    problems.push('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are a pair: give both or neither')
  }

  const values = {}
  const generated = []
  const kept = []
  const wanted = (name) => !has.has(name) || asked.has(name)
  for (const [name, value] of Object.entries(provided)) {
    if (wanted(name)) values[name] = value
    else kept.push(name)
  }
  const generate = ['JWT_SECRET', 'VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY']
  if (wantTelegramSecret) generate.push('TELEGRAM_WEBHOOK_SECRET')
  for (const name of generate) {
    if (name in values || name in provided || !wanted(name)) continue
    // A key pair is made whole: replacing or missing either half makes a new pair.
    for (const [n, v] of Object.entries(GENERATORS[name]())) {
      if (n in provided) continue
      values[n] = v
      if (!generated.includes(n)) generated.push(n)
    }
  }
  return { values, generated, kept, problems }
}

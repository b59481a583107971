// The JWT_SECRET of a local .dev.vars: `npm start` writes a random one on first start, replaces a
// published example value, and refuses a short one before wrangler runs (the Worker would refuse
// it too, but only at the first request, with a 500).

const MIN_LENGTH = 32

// The values this repository has published; src/lib/jwt-secret.ts refuses the same list (a test
// keeps the two equal).
export const EXAMPLE_SECRETS = [
  'replace-me-npm-start-writes-a-random-secret',
  'local-development-secret-change-me-0123456789',
]

const LINE = /^[ \t]*JWT_SECRET[ \t]*=(.*)$/m

function valueOf(text) {
  const raw = LINE.exec(text ?? '')?.[1]?.trim()
  return raw?.replace(/^(["'])(.*)\1$/, '$2') || undefined
}

function withSecret(text, secret) {
  const line = `JWT_SECRET=${secret}`
  if (LINE.test(text)) return text.replace(LINE, () => line)
  return `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${line}\n`
}

/**
 * The .dev.vars text to run with, from the current file (undefined when there is none) and the
 * example, with what was done: created, replaced (a published value), added (none was set),
 * kept, or refused (too short; `message` tells the developer what to do).
 */
export function devVarsWithSecret(current, example, randomSecret) {
  if (current === undefined) return { action: 'created', text: withSecret(example, randomSecret()) }
  const secret = valueOf(current)
  if (!secret) return { action: 'added', text: withSecret(current, randomSecret()) }
  const published = [...EXAMPLE_SECRETS, valueOf(example)].includes(secret)
  if (published) return { action: 'replaced', text: withSecret(current, randomSecret()) }
  if (secret.length < MIN_LENGTH) {
    return {
      action: 'refused',
      text: current,
      message:
        `JWT_SECRET in .dev.vars must be at least ${MIN_LENGTH} characters long. Delete its ` +
        'line and `npm start` writes a random one, or set your own longer value.',
    }
  }
  return { action: 'kept', text: current }
}

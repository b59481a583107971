// Whether JWT_SECRET may sign tokens and key stored secrets: set, long enough, and not one of the
// values this repository has published, since a token forged with a published secret would be
// accepted by every deployment that copied it.

export const MIN_JWT_SECRET_LENGTH = 32

/**
 * The placeholder of .dev.vars.example and the fixed value it shipped before; `npm start` writes a
 * random secret instead (scripts/lib/dev-secret.mjs keeps the same list).
 */
export const EXAMPLE_JWT_SECRETS: readonly string[] = [
  'replace-me-npm-start-writes-a-random-secret',
  'local-development-secret-change-me-0123456789',
]

/**
 * Why `secret` may not be used, in words an operator can act on; undefined when it may. `name` is
 * the setting it came from (JWT_SECRET_PREVIOUS holds the secret before a rotation).
 */
export function jwtSecretProblem(
  secret: string | undefined,
  name = 'JWT_SECRET',
): string | undefined {
  const fix =
    `set a random value (\`openssl rand -base64 48\`) with \`wrangler secret put ${name}\`, ` +
    'or locally delete it from .dev.vars and `npm start` writes one'
  if (!secret) return `${name} is not set: ${fix}`
  if (EXAMPLE_JWT_SECRETS.includes(secret)) {
    return `${name} is the published example value of .dev.vars.example: ${fix}`
  }
  if (secret.length < MIN_JWT_SECRET_LENGTH) {
    return `${name} must be at least ${MIN_JWT_SECRET_LENGTH} characters long: ${fix}`
  }
  return undefined
}

/** The secret when it may be used; otherwise throws, so nothing is signed or sealed with it. */
export function requireJwtSecret(secret: string | undefined, name = 'JWT_SECRET'): string {
  const problem = jwtSecretProblem(secret, name)
  if (problem) throw new Error(problem)
  return secret as string
}

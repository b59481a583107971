// The proof token an account places in a public profile field of its handle: made at random, shown
// until it expires, and looked for in the fields the judge publishes.
import { randomBytes } from '../lib/crypto.ts'
import { HOUR_MS } from '../lib/time.ts'

/** How long a token proves: long enough to edit a profile, short enough that an old one is dead. */
export const PROOF_TTL_MS = 24 * HOUR_MS

// RFC 4648's base32 alphabet in lower case: letters and digits every profile field takes, with no
// sign a judge might strip or escape. 32 symbols, so a byte's low 5 bits pick one without bias.
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567'
const TOKEN_CHARS = 10
const PREFIX = 'cas-'

/** `cas-` and 10 base32 characters (50 bits): no one guesses the token of another's link. */
export function newProofToken(): string {
  return PREFIX + Array.from(randomBytes(TOKEN_CHARS), (b) => ALPHABET[b & 31]).join('')
}

/**
 * Whether one of the profile's fields holds the token. A field may hold other words around it
 * (an organization "MIT cas-..."), and judges that change letters' case (a name field shown in
 * capitals) still show the token's letters, so the comparison ignores case.
 */
export function fieldsHoldToken(fields: readonly string[], token: string): boolean {
  const wanted = token.toLowerCase()
  return fields.some((field) => field.toLowerCase().includes(wanted))
}

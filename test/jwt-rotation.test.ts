// Rotating JWT_SECRET: tokens and links made under the previous secret keep working while
// JWT_SECRET_PREVIOUS holds it, and stop once it is removed; refresh tokens never depend on it.
import { env } from 'cloudflare:test'
import { SignJWT } from 'jose'
import { beforeEach, describe, expect, it } from 'vitest'
import { createDb } from '../src/db/client.ts'
import type { Env } from '../src/env.ts'
import { jwtConfig } from '../src/lib/jwt-config.ts'
import { jwtKeyId, signAccessToken } from '../src/lib/jwt.ts'
import { muteToken, readMuteToken } from '../src/users/mute-link.ts'
import { webhookConfig } from '../src/webhooks/config.ts'
import { createEndpoint, resealEndpointSecrets } from '../src/webhooks/endpoints.ts'
import { openSecret } from '../src/webhooks/secret.ts'
import { standIn } from './helpers/stand-in.ts'
import { api, claimsOf, createUser, type TestUser } from './helpers/users.ts'

beforeEach(() => standIn.reset())

const OLD = env.JWT_SECRET as string
const NEW = 'the-rotated-secret-that-is-long-enough-for-hs256'
/** During the rotation: the new secret signs, the old one still verifies. */
const ROTATING: Partial<Env> = { JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: OLD }
/** After it: the previous secret removed. */
const ROTATED: Partial<Env> = { JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: '' }

const envWith = (bindings: Partial<Env>) => ({ ...env, ...bindings }) as Env

function headerOf(token: string): Record<string, unknown> {
  const part = token.split('.')[0].replace(/-/g, '+').replace(/_/g, '/')
  return JSON.parse(atob(part + '='.repeat((4 - (part.length % 4)) % 4)))
}

const profileStatus = async (token: string, bindings: Partial<Env> = {}) =>
  (await api('GET', '/users/profile', { token, bindings })).status

/** A token with these claims and header, signed with `secret` as HS256 unless the header says. */
async function handMade(secret: string, header: Record<string, unknown>, user: TestUser) {
  const now = Math.floor(Date.now() / 1000)
  const { issuer, audience } = jwtConfig(env)
  // The user's own live session: only the signature and its header are in question.
  return new SignJWT({ sid: claimsOf(user.accessToken).sid, role: 'user' })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', ...header })
    .setSubject(user.id)
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt(now)
    .setExpirationTime(now + 900)
    .sign(new TextEncoder().encode(secret))
}

describe('access tokens across a rotation of JWT_SECRET', () => {
  it('name their key with a kid derived from the secret, which never appears in the token', async () => {
    const { accessToken } = await createUser()
    const header = headerOf(accessToken)
    expect(header).toEqual({ alg: 'HS256', typ: 'at+jwt', kid: await jwtKeyId(OLD) })
    expect(header.kid).toMatch(/^[0-9a-f]{8}$/)
    expect(await jwtKeyId(NEW)).not.toBe(header.kid)
    expect(accessToken).not.toContain(OLD)
  })

  it('a token signed before the rotation still works after it, and is refused once the previous secret is removed', async () => {
    const { accessToken } = await createUser()
    expect(await profileStatus(accessToken)).toBe(200)
    expect(await profileStatus(accessToken, ROTATING)).toBe(200)
    expect(await profileStatus(accessToken, ROTATED)).toBe(401)
  })

  it('tokens signed during the rotation carry the new key and outlive the previous secret', async () => {
    const { id, accessToken } = await createUser()
    const claims = { sub: id, sid: claimsOf(accessToken).sid, role: 'user' as const }
    const token = await signAccessToken(jwtConfig(envWith(ROTATING)), claims, Date.now())
    expect(headerOf(token).kid).toBe(await jwtKeyId(NEW))
    expect(await profileStatus(token, ROTATING)).toBe(200)
    expect(await profileStatus(token, ROTATED)).toBe(200)
    // Rolled back to the old secret alone, the new key is unknown.
    expect(await profileStatus(token)).toBe(401)
  })

  it('refresh tokens are not signed with the secret: a session refreshes across the whole rotation', async () => {
    const { refreshToken } = await createUser()
    const refreshed = await api('POST', '/auth/refresh', {
      body: { refreshToken },
      bindings: ROTATED,
    })
    expect(refreshed.status).toBe(200)
    expect(headerOf(refreshed.body.accessToken).kid).toBe(await jwtKeyId(NEW))
    expect(await profileStatus(refreshed.body.accessToken, ROTATED)).toBe(200)
  })

  it('a token with an unknown kid is refused, even when signed with the current secret', async () => {
    const user = await createUser()
    const unknown = await handMade(OLD, { kid: 'deadbeef' }, user)
    expect(await profileStatus(unknown)).toBe(401)
    expect(await profileStatus(unknown, ROTATING)).toBe(401)
    // The previous key's kid with a signature of another key does not pass either.
    const mismatched = await handMade(NEW, { kid: await jwtKeyId(OLD) }, user)
    expect(await profileStatus(mismatched, ROTATING)).toBe(401)
    // The control: the same hand-made token with the right kid passes.
    expect(await profileStatus(await handMade(OLD, { kid: await jwtKeyId(OLD) }, user))).toBe(200)
  })

  it('keeps alg pinned to HS256 whatever the kid names', async () => {
    const user = await createUser()
    const kid = await jwtKeyId(OLD)
    const hs512 = await handMade(OLD, { alg: 'HS512', kid }, user)
    expect(await profileStatus(hs512)).toBe(401)
    expect(await profileStatus(hs512, { JWT_SECRET_PREVIOUS: OLD, JWT_SECRET: NEW })).toBe(401)
    const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '')
    const payload = claimsOf(await handMade(OLD, { kid }, user))
    const unsigned = `${b64({ alg: 'none', typ: 'at+jwt', kid })}.${b64(payload)}.`
    expect(await profileStatus(unsigned)).toBe(401)
  })

  it('a token without kid (issued before tokens named their key) verifies with the current secret only', async () => {
    const user = await createUser()
    const legacy = await handMade(OLD, {}, user)
    expect(headerOf(legacy).kid).toBeUndefined()
    expect(await profileStatus(legacy)).toBe(200)
    // Not with the previous one: such tokens are at most 15 minutes old at the upgrade.
    expect(await profileStatus(legacy, ROTATING)).toBe(401)
  })

  it('refuses a short or published JWT_SECRET_PREVIOUS, naming it', () => {
    expect(() => jwtConfig(envWith({ JWT_SECRET_PREVIOUS: 'short' }))).toThrow(
      /JWT_SECRET_PREVIOUS must be at least 32 characters/,
    )
    expect(() =>
      jwtConfig(envWith({ JWT_SECRET_PREVIOUS: 'replace-me-npm-start-writes-a-random-secret' })),
    ).toThrow(/JWT_SECRET_PREVIOUS is the published example value/)
    // The same value as JWT_SECRET is no rotation at all, and harmless.
    expect(jwtConfig(envWith({ JWT_SECRET_PREVIOUS: OLD })).previousSecret).toBeUndefined()
  })
})

describe('keys derived from JWT_SECRET across a rotation', () => {
  it('a signed mute link mailed before the rotation works during it and stops after', async () => {
    const { id } = await createUser()
    const claim = { userId: id, contestId: 'c0ffee0000000000000000aa' }
    const token = await muteToken(env, claim)
    expect(await readMuteToken(envWith(ROTATING), token)).toEqual(claim)
    expect(await readMuteToken(envWith(ROTATED), token)).toBeUndefined()
    // New links are signed with the new secret only.
    const fresh = await muteToken(envWith(ROTATING), claim)
    expect(fresh).not.toBe(token)
    expect(await readMuteToken(envWith(ROTATED), fresh)).toEqual(claim)
  })

  it('webhook secrets sealed under the previous secret open during the rotation, and are sealed again under the new one', async () => {
    const db = createDb(env.DB)
    const { id } = await createUser()
    const made = await createEndpoint(
      db,
      { ...webhookConfig(env), allowLocalTargets: true },
      { url: 'https://hooks.example.test/rotation', events: ['contest.created'] },
      id,
      Date.now(),
    )
    const sealed = made.row.secretCiphertext
    const rotating = webhookConfig(envWith(ROTATING))
    const rotated = webhookConfig(envWith(ROTATED))
    expect(await openSecret(rotating, made.row.id, sealed)).toBe(made.secret)
    await expect(openSecret(rotated, made.row.id, sealed)).rejects.toThrow()

    // The half-hourly run does it while JWT_SECRET_PREVIOUS is set; a second run finds nothing.
    expect(await resealEndpointSecrets(db, rotating, Date.now())).toBeGreaterThanOrEqual(1)
    expect(await resealEndpointSecrets(db, rotating, Date.now())).toBe(0)
    const row = await env.DB.prepare(
      'SELECT secret_ciphertext AS sealed FROM webhook_endpoints WHERE id = ?',
    )
      .bind(made.row.id)
      .first<{ sealed: string }>()
    expect(row?.sealed).not.toBe(sealed)
    expect(await openSecret(rotated, made.row.id, row!.sealed)).toBe(made.secret)
  })
})

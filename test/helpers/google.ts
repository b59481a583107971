// Sign in with Google against the stand-in: the settings that point the service at it, scripted
// claims, and each hop of the browser's trip (start, Google, callback, token exchange).
import type { Env } from '../../src/env.ts'
import { GOOGLE_TEST_CLIENT, type GoogleProfile } from '../stand-ins/google-client.ts'
import { standInUrl } from './stand-in.ts'
import { api, createUser, lastCode, uniqueEmail, type ApiResponse, type TestUser } from './users.ts'

export const APP_URL = 'http://localhost:8787'
export const CLIENT_REDIRECT = `${APP_URL}/app/signed-in`
export const LISTED_REDIRECT = 'https://client.example/google/done'

export const GOOGLE: Partial<Env> = {
  APP_URL,
  GOOGLE_CLIENT_ID: GOOGLE_TEST_CLIENT.id,
  GOOGLE_CLIENT_SECRET: GOOGLE_TEST_CLIENT.secret,
  GOOGLE_AUTH_URL: `${standInUrl}/google/auth`,
  GOOGLE_TOKEN_URL: `${standInUrl}/google/token`,
  GOOGLE_JWKS_URL: `${standInUrl}/google/jwks`,
  GOOGLE_CLIENT_REDIRECTS: LISTED_REDIRECT,
}

// Numeric like Google's, and unique across files and runs as addresses are: a sub another test
// linked would sign in to that test's account.
const run = String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0')
let subject = 0

/** A Google account with a verified address nobody has used yet. */
export function googleProfile(over: Partial<GoogleProfile> = {}): GoogleProfile {
  return {
    sub: `1${run}${String(++subject).padStart(6, '0')}`,
    email: uniqueEmail('google'),
    email_verified: true,
    name: 'Grace Hopper',
    ...over,
  }
}

/** The claims of the stand-in's next ID token. */
export async function scriptGoogle(profile: GoogleProfile) {
  const res = await fetch(`${standInUrl}/__control/google`, {
    method: 'POST',
    body: JSON.stringify(profile),
  })
  if (!res.ok) throw new Error(`stand-in control google failed: ${res.status}`)
}

export const location = (res: ApiResponse) => new URL(res.headers.get('location') ?? '')

/** GET /auth/google/start; the answer, 302 to Google when all is well. */
export function start(redirectUri = CLIENT_REDIRECT, bindings: Partial<Env> = GOOGLE) {
  const query = new URLSearchParams({ redirect_uri: redirectUri })
  return api('GET', `/auth/google/start?${query}`, { bindings })
}

/** The browser at Google: the stand-in's redirect back, as the path of the service's callback. */
export async function atGoogle(authorizationUrl: URL): Promise<string> {
  const res = await fetch(authorizationUrl, { redirect: 'manual' })
  if (res.status !== 302) throw new Error(`Google stand-in answered ${res.status}`)
  const back = new URL(res.headers.get('location')!)
  return back.pathname + back.search
}

export const callback = (path: string, bindings: Partial<Env> = GOOGLE) =>
  api('GET', path, { bindings })

export const redeem = (code: unknown, bindings: Partial<Env> = GOOGLE) =>
  api('POST', '/auth/google/token', { body: { code }, bindings })

/** The whole trip for `profile`: the client's redirect (code or error) that the callback sent. */
export async function signInWithGoogle(
  profile: GoogleProfile,
  bindings: Partial<Env> = GOOGLE,
): Promise<URL> {
  await scriptGoogle(profile)
  const started = await start(CLIENT_REDIRECT, bindings)
  if (started.status !== 302) throw new Error(`start answered ${started.status}`)
  const res = await callback(await atGoogle(location(started)), bindings)
  if (res.status !== 302) throw new Error(`callback answered ${res.status}`)
  return location(res)
}

/** An account whose address its owner proved with the code mailed at sign-up (in its session). */
export async function verifiedAccount(): Promise<TestUser> {
  const user = await createUser()
  if (user.user.emailVerified) return user
  const res = await api('POST', '/auth/verify-email', {
    token: user.accessToken,
    body: { email: user.email, code: await lastCode(user.email) },
  })
  if (res.status !== 200) throw new Error(`verify-email answered ${res.status}`)
  return { ...user, user: res.body.user }
}

/** An account signed up and never proven: whoever made it may not own the address. */
export async function unverifiedAccount(): Promise<{ id: string; email: string }> {
  const email = uniqueEmail()
  const res = await api('POST', '/auth/signup', {
    body: { email, password: 'long-enough-1', name: 'Squatter' },
  })
  if (res.status !== 201) throw new Error(`signup answered ${res.status}`)
  return { id: res.body.user.id, email }
}

// Google's OpenID Connect endpoints for the loopback stand-in: authorization (redirects back with a
// code), token (checks the client, the code and the PKCE S256 verifier, returns an RS256 ID token
// with the request's nonce) and the JWKS that verifies it. The next sign-in's claims are scripted.
import { createHash, randomUUID } from 'node:crypto'
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey as JoseKey } from 'jose'
import { GOOGLE_TEST_CLIENT, type GoogleProfile } from './google-client.ts'

interface Response {
  status: number
  body?: unknown
  headers?: Record<string, string>
}

interface Grant {
  redirectUri: string
  challenge: string
  nonce: string
  profile: GoogleProfile
}

const KEY_ID = 'stand-in-google-key'

const DEFAULT_PROFILE: GoogleProfile = {
  sub: '100000000000000000001',
  email: 'google-user@example.test',
  email_verified: true,
  name: 'Google User',
}

const oauthError = (error: string, description: string): Response => ({
  status: 400,
  body: { error, error_description: description },
})

function basicCredentials(header: string | undefined): [string, string] | undefined {
  if (!header?.startsWith('Basic ')) return undefined
  const text = Buffer.from(header.slice(6), 'base64').toString('utf8')
  const at = text.indexOf(':')
  return at < 0 ? undefined : [text.slice(0, at), text.slice(at + 1)]
}

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url')

export function createGoogleStandIn() {
  const grants = new Map<string, Grant>()
  let next: GoogleProfile = DEFAULT_PROFILE
  // Made on first use: one key the JWKS serves, one it never does (for forged signatures).
  const keys = Promise.all([
    generateKeyPair('RS256', { extractable: true }),
    generateKeyPair('RS256'),
  ])

  async function idToken(grant: Grant): Promise<string> {
    const [served, unknown] = await keys
    const { profile } = grant
    const o = profile.overrides ?? {}
    const now = Math.floor(Date.now() / 1000)
    const key: JoseKey = o.badSignature ? unknown.privateKey : served.privateKey
    return new SignJWT({
      email: profile.email,
      email_verified: profile.email_verified,
      name: profile.name,
      nonce: o.nonce ?? grant.nonce,
      azp: GOOGLE_TEST_CLIENT.id,
    })
      .setProtectedHeader({ alg: 'RS256', kid: KEY_ID, typ: 'JWT' })
      .setIssuer(o.iss ?? 'https://accounts.google.com')
      .setAudience(o.aud ?? GOOGLE_TEST_CLIENT.id)
      .setSubject(profile.sub)
      .setIssuedAt(now)
      .setExpirationTime(now + (o.expiresIn ?? 3600))
      .sign(key)
  }

  function authorize(url: URL): Response {
    const q = url.searchParams
    if (q.get('client_id') !== GOOGLE_TEST_CLIENT.id) {
      return oauthError('invalid_client', 'The OAuth client was not found.')
    }
    const redirectUri = q.get('redirect_uri')
    const challenge = q.get('code_challenge')
    const nonce = q.get('nonce')
    const scopes = (q.get('scope') ?? '').split(' ')
    if (q.get('response_type') !== 'code' || !redirectUri || !q.get('state') || !nonce) {
      return oauthError('invalid_request', 'Required parameter is missing.')
    }
    if (q.get('code_challenge_method') !== 'S256' || !challenge || !scopes.includes('openid')) {
      return oauthError('invalid_request', 'PKCE S256 and the openid scope are required.')
    }
    const code = `4/${randomUUID()}`
    grants.set(code, { redirectUri, challenge, nonce, profile: next })
    next = DEFAULT_PROFILE
    const back = new URL(redirectUri)
    back.searchParams.set('state', q.get('state')!)
    back.searchParams.set('code', code)
    back.searchParams.set('scope', 'email profile openid')
    return { status: 302, headers: { location: back.href } }
  }

  async function token(headers: Record<string, string>, body: string): Promise<Response> {
    const form = new URLSearchParams(body)
    const client = basicCredentials(headers.authorization)
    if (client?.[0] !== GOOGLE_TEST_CLIENT.id || client[1] !== GOOGLE_TEST_CLIENT.secret) {
      return { status: 401, body: { error: 'invalid_client', error_description: 'Unauthorized' } }
    }
    if (form.get('grant_type') !== 'authorization_code') {
      return oauthError('unsupported_grant_type', 'Invalid grant_type.')
    }
    const code = form.get('code') ?? ''
    const grant = grants.get(code)
    // A code is spent by any attempt, as Google's are.
    grants.delete(code)
    if (!grant || form.get('redirect_uri') !== grant.redirectUri) {
      return oauthError('invalid_grant', 'Bad Request')
    }
    const verifier = form.get('code_verifier')
    if (!verifier || s256(verifier) !== grant.challenge) {
      return oauthError('invalid_grant', 'Invalid code verifier.')
    }
    return {
      status: 200,
      body: {
        access_token: `ya29.${randomUUID()}`,
        expires_in: 3599,
        scope: 'openid https://www.googleapis.com/auth/userinfo.email',
        token_type: 'Bearer',
        id_token: await idToken(grant),
      },
    }
  }

  async function jwks(): Promise<Response> {
    const [served] = await keys
    const jwk = await exportJWK(served.publicKey)
    return { status: 200, body: { keys: [{ ...jwk, kid: KEY_ID, alg: 'RS256', use: 'sig' }] } }
  }

  return {
    /** The claims of the next authorization (then back to the default profile). */
    script(profile: GoogleProfile) {
      next = profile
    },
    reset() {
      grants.clear()
      next = DEFAULT_PROFILE
    },
    async respond(
      method: string,
      url: URL,
      headers: Record<string, string>,
      body: string,
    ): Promise<Response> {
      const path = url.pathname.slice('/google'.length)
      if (method === 'GET' && path === '/auth') return authorize(url)
      if (method === 'POST' && path === '/token') return token(headers, body)
      if (method === 'GET' && path === '/jwks') return jwks()
      return { status: 404, body: { error: `no Google endpoint at ${method} ${url.pathname}` } }
    },
  }
}

// Sign in with Google: the OAuth client and endpoints from the settings, and which client URLs
// may receive a sign-in's result.
import { settings, type Env } from '../env.ts'

export interface GoogleConfig {
  clientId: string
  clientSecret: string
  authUrl: string
  tokenUrl: string
  jwksUrl: string
  /** Google's redirect URI of this service: where Google sends the browser back. */
  callbackUrl: string
  appOrigin: string
  clientRedirects: string[]
}

export const GOOGLE_CALLBACK_PATH = '/auth/google/callback'

/** The configuration, or undefined while the client id or secret is missing (the routes say 503). */
export function googleConfig(env: Env): GoogleConfig | undefined {
  const s = settings(env)
  if (!s.GOOGLE_CLIENT_ID || !s.GOOGLE_CLIENT_SECRET) return undefined
  const app = new URL(s.APP_URL)
  return {
    clientId: s.GOOGLE_CLIENT_ID,
    clientSecret: s.GOOGLE_CLIENT_SECRET,
    authUrl: s.GOOGLE_AUTH_URL,
    tokenUrl: s.GOOGLE_TOKEN_URL,
    jwksUrl: s.GOOGLE_JWKS_URL,
    callbackUrl: new URL(GOOGLE_CALLBACK_PATH, app).href,
    appOrigin: app.origin,
    clientRedirects: s.GOOGLE_CLIENT_REDIRECTS,
  }
}

/**
 * Whether a client's redirect_uri may receive the one-time code: a URL of this service's own
 * origin, or one listed exactly in GOOGLE_CLIENT_REDIRECTS. Anything else would hand a sign-in to
 * whoever wrote the link. No fragment, as OAuth requires of redirect URIs.
 */
export function isAllowedRedirect(config: GoogleConfig, uri: string): boolean {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return false
  }
  if (url.hash || uri.includes('#')) return false
  if (url.username || url.password) return false
  if (config.clientRedirects.includes(uri)) return true
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === config.appOrigin
}

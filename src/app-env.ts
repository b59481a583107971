// The Hono environment type shared by the app and its middleware: bindings and request variables.
import type { Env } from './env.ts'
import type { AccessClaims } from './lib/jwt.ts'

/**
 * What the bearer guards (http/auth.ts) ask of the sessions' owner (auth), which sits above them
 * and is passed in by the app.
 */
export interface SessionChecks {
  /** The session is neither revoked nor expired. */
  isLive(env: Env, sessionId: string, now: number): Promise<boolean>
  /** ...and it is an admin's session of a user who is still an admin. */
  isAdminLive(env: Env, claims: AccessClaims, now: number): Promise<boolean>
}

export interface AppEnv {
  Bindings: Env
  Variables: {
    requestId: string
    /** The verified access-token claims, set by requireUser / requireAdmin. */
    auth?: AccessClaims
    /** The client's address as the runtime entry reports it (http/client-address.ts). */
    clientAddress?: string
    /** Set by the app for every request, before any guard runs. */
    sessionChecks: SessionChecks
  }
}

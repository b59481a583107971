// The Hono environment type shared by the app and its middleware: bindings and request variables.
import type { Context } from 'hono'
import type { Env } from './env.ts'
import type { AccessClaims, Role } from './lib/jwt.ts'

/**
 * What the bearer guards (http/auth.ts) ask of the sessions' owner (auth), which sits above them
 * and is passed in by the app.
 */
export interface SessionChecks {
  /** The claims' session, of the claims' user, is neither revoked nor expired. */
  isLive(env: Env, claims: AccessClaims, now: number): Promise<boolean>
  /** ...and it is an admin's session of a user who is still an admin. */
  isAdminLive(env: Env, claims: AccessClaims, now: number): Promise<boolean>
  /** No users row has this id any more (deleted for good; a soft-deleted one still has its row). */
  isUserGone(env: Env, userId: string): Promise<boolean>
}

/**
 * The user a request's web app cookie signs in, when it names a live session (web/ reads the
 * cookie, auth the session). The limits in http/ ask it through a request variable, as the guards
 * ask SessionChecks, since they cannot import the layers above them.
 */
export type WebSessionUser = (
  c: Context<AppEnv>,
) => Promise<{ userId: string; role: Role } | undefined>

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
    /** Set by the app for every request: who the web app's session cookie signs in. */
    webSessionUser: WebSessionUser
  }
}

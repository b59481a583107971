// The Hono environment type shared by the app and its middleware: bindings and request variables.
import type { Env } from './env.ts'
import type { AccessClaims } from './lib/jwt.ts'

export interface AppEnv {
  Bindings: Env
  Variables: {
    requestId: string
    /** The verified access-token claims, set by requireUser / requireAdmin. */
    auth?: AccessClaims
    /** The client's address as the runtime entry reports it (http/client-address.ts). */
    clientAddress?: string
  }
}

// The Hono environment type shared by the app and its middleware: bindings and request variables.
import type { Env } from './env.ts'

export interface AppEnv {
  Bindings: Env
  Variables: {
    requestId: string
  }
}

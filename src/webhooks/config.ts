// Webhook settings derived once per env: the key source for secrets and the target rule.
import { settings, type Env } from '../env.ts'
import { requireJwtSecret } from '../lib/jwt-secret.ts'
import { localTargetsAllowed } from '../lib/outbound-targets.ts'

export interface WebhookConfig {
  /** JWT_SECRET; signing secrets are encrypted under a key derived from it. */
  rootSecret: string
  /** ALLOW_LOCAL_TARGETS (local runs only): http and private or loopback targets are allowed. */
  allowLocalTargets: boolean
}

export function webhookConfig(env: Env): WebhookConfig {
  const s = settings(env)
  // Without a usable secret none could be sealed or opened; fail loudly rather than store one in
  // clear or under a key anyone can derive.
  return { rootSecret: requireJwtSecret(s.JWT_SECRET), allowLocalTargets: localTargetsAllowed(env) }
}

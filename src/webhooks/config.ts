// Webhook settings derived once per env: the key source for secrets and the target rule.
import type { Env } from '../env.ts'
import { jwtConfig } from '../lib/jwt-config.ts'
import { localTargetsAllowed } from '../lib/outbound-targets.ts'

export interface WebhookConfig {
  /** JWT_SECRET; signing secrets are encrypted under a key derived from it. */
  rootSecret: string
  /**
   * JWT_SECRET_PREVIOUS while JWT_SECRET rotates: secrets sealed under it still open, and the
   * half-hourly run seals them again under the current one (resealEndpointSecrets).
   */
  previousRootSecret?: string
  /** ALLOW_LOCAL_TARGETS (local runs only): http and private or loopback targets are allowed. */
  allowLocalTargets: boolean
}

export function webhookConfig(env: Env): WebhookConfig {
  // Without a usable secret none could be sealed or opened: jwtConfig fails loudly rather than
  // let one be stored in clear or under a key anyone can derive.
  const { secret, previousSecret } = jwtConfig(env)
  return {
    rootSecret: secret,
    ...(previousSecret && { previousRootSecret: previousSecret }),
    allowLocalTargets: localTargetsAllowed(env),
  }
}

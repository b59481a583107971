// Webhook settings derived once per env: the key source for secrets and the target rule.
import { settings, type Env } from '../env.ts'

export interface WebhookConfig {
  /** JWT_SECRET; signing secrets are encrypted under a key derived from it. */
  rootSecret: string
  /** Local runs only: http and private or loopback targets are allowed. */
  allowPrivateTargets: boolean
}

export function webhookConfig(env: Env): WebhookConfig {
  const s = settings(env)
  // Without it no secret could be sealed or opened; fail loudly rather than store one in clear.
  if (!s.JWT_SECRET) throw new Error('JWT_SECRET is not set')
  return { rootSecret: s.JWT_SECRET, allowPrivateTargets: s.ALLOW_PRIVATE_WEBHOOK_TARGETS }
}

// The access-token parameters, derived once per env from the settings: the one place that reads
// JWT_SECRET (and JWT_SECRET_PREVIOUS during a rotation), so the guards, the sign-in flows and the
// keys derived from the secret cannot disagree.
import { settings, type Env } from '../env.ts'
import { requireJwtSecret } from './jwt-secret.ts'
import type { JwtConfig } from './jwt.ts'

const cache = new WeakMap<object, JwtConfig>()

export function jwtConfig(env: Env): JwtConfig {
  let config = cache.get(env)
  if (!config) {
    const s = settings(env)
    // A missing, short or published secret fails loudly rather than sign tokens anyone can forge.
    const secret = requireJwtSecret(s.JWT_SECRET)
    // The previous secret verifies tokens and links that name it, so a published or short one
    // would let anyone forge them: it must pass the same checks.
    const previous = s.JWT_SECRET_PREVIOUS
    config = {
      secret,
      ...(previous &&
        previous !== secret && {
          previousSecret: requireJwtSecret(previous, 'JWT_SECRET_PREVIOUS'),
        }),
      issuer: s.JWT_ISSUER,
      audience: s.JWT_AUDIENCE,
    }
    cache.set(env, config)
  }
  return config
}

// The access-token parameters, derived once per env from the settings: the one place that reads
// JWT_SECRET for signing, so the guards and the sign-in flows cannot disagree.
import { settings, type Env } from '../env.ts'
import { requireJwtSecret } from './jwt-secret.ts'
import type { JwtConfig } from './jwt.ts'

const cache = new WeakMap<object, JwtConfig>()

export function jwtConfig(env: Env): JwtConfig {
  let config = cache.get(env)
  if (!config) {
    const s = settings(env)
    // A missing, short or published secret fails loudly rather than sign tokens anyone can forge.
    config = {
      secret: requireJwtSecret(s.JWT_SECRET),
      issuer: s.JWT_ISSUER,
      audience: s.JWT_AUDIENCE,
    }
    cache.set(env, config)
  }
  return config
}

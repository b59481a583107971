// Auth settings derived once per env: the JWT parameters, the code-hashing key, the first admins.
import { settings, type Env } from '../env.ts'
import { hmacKey, hmacSha256 } from '../lib/crypto.ts'
import { jwtConfig } from '../lib/jwt-config.ts'
import type { JwtConfig } from '../lib/jwt.ts'

export interface AuthConfig {
  jwt: JwtConfig
  /** Key of the HMAC that stores email codes; derived from JWT_SECRET under its own label. */
  codeKey: Promise<CryptoKey>
  bootstrapAdmins: string[]
}

const cache = new WeakMap<object, AuthConfig>()

async function deriveKey(secret: string, label: string): Promise<CryptoKey> {
  return hmacKey(await hmacSha256(await hmacKey(secret), label))
}

export function authConfig(env: Env): AuthConfig {
  let config = cache.get(env)
  if (!config) {
    const jwt = jwtConfig(env)
    config = {
      jwt,
      codeKey: deriveKey(jwt.secret, 'email-code-pepper'),
      bootstrapAdmins: settings(env).BOOTSTRAP_ADMIN_EMAILS,
    }
    cache.set(env, config)
  }
  return config
}

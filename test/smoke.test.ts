import { env, exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'

describe('smoke', () => {
  it('answers health', async () => {
    const res = await exports.default.fetch('http://x/contests/health')
    expect(res.status).toBe(200)
    console.log(await res.json(), Object.keys(env))
  })
})

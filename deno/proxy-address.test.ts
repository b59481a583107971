// The client address on Deno behind a proxy, with the Deno ports (SQLite, the Deno KV limiter) as
// deno/main.ts wires them: only the header TRUST_PROXY_HEADER names counts, so a client's own
// CF-Connecting-IP neither lifts its block nor locks another's sign-in.
import assert from 'node:assert/strict'
import type { ExecutionContext } from 'hono'
import { createApp } from '../src/app.ts'
import { socketClientAddress } from '../src/http/client-address.ts'
import { denoEnv } from './env.ts'
import { applyMigrations } from './migrations.ts'
import { openSqliteD1 } from './sqlite-d1.ts'

const MIGRATIONS = new URL('../migrations', import.meta.url).pathname
// Every request reaches the app from the proxy, which appends the client's address.
const PROXY = '10.0.0.2'

const executionCtx: ExecutionContext = {
  waitUntil: (work) => void work.catch(() => {}),
  passThroughOnException: () => {},
  props: {},
}

Deno.test(
  'behind an X-Forwarded-For proxy, a client’s own CF-Connecting-IP neither lifts its sign-in block nor locks another’s',
  async () => {
    const dir = await Deno.makeTempDir()
    const db = openSqliteD1(`${dir}/db.sqlite`)
    const kv = await Deno.openKv(`${dir}/kv.sqlite`)
    try {
      await applyMigrations(db, MIGRATIONS)
      const env = denoEnv(
        {
          JWT_SECRET: 'deno-proxy-address-test-secret-0123456789abcdef',
          TRUST_PROXY_HEADER: 'X-Forwarded-For',
        },
        db,
        kv,
      )
      const app = createApp({ clientAddress: socketClientAddress(() => PROXY) })
      const call = async (path: string, body: unknown, headers: Record<string, string>) => {
        const res = await app.fetch(
          new Request(`http://127.0.0.1:8787${path}`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', ...headers },
            body: JSON.stringify(body),
          }),
          env,
          executionCtx,
        )
        await res.body?.cancel()
        return res.status
      }
      const victim = { email: 'victim@deno.example.test', password: 'victim-password-1' }
      const victimAt = '198.51.100.10'
      const attackerAt = '203.0.113.66'
      // The proxy passes the client's own headers on and appends the address it saw.
      const from = (at: string, forged: Record<string, string> = {}) => ({
        'X-Forwarded-For': `192.0.2.1, ${at}`,
        ...forged,
      })
      assert.equal(await call('/auth/signup', { ...victim, name: 'Victim' }, from(victimAt)), 201)

      const wrong = { email: victim.email, password: 'not-the-password' }
      for (let i = 0; i < 5; i++) {
        const status = await call(
          '/auth/signin',
          wrong,
          from(attackerAt, { 'CF-Connecting-IP': victimAt }),
        )
        assert.equal(status, 401)
      }
      // The five failures counted against the attacker's address, not the one it wrote.
      assert.equal(await call('/auth/signin', victim, from(victimAt)), 200)
      assert.equal(await call('/auth/signin', wrong, from(attackerAt)), 429)
      const fresh = { 'CF-Connecting-IP': '203.0.113.200', 'X-Real-IP': '203.0.113.201' }
      assert.equal(await call('/auth/signin', wrong, from(attackerAt, fresh)), 429)
    } finally {
      kv.close()
      db.close()
      await Deno.remove(dir, { recursive: true })
    }
  },
)

// The KeyValueStore port on Deno KV: string values under a key prefix, Workers-KV-style TTLs.
import type { KeyValueListing, KeyValueStore } from '../src/ports/key-value.ts'

/**
 * What is stored per key. Deno KV deletes expired keys only some time after `expireIn`, so the
 * expiry is kept with the value and an expired entry reads as missing, as in Workers KV.
 */
interface Entry {
  value: string
  expiresAt?: number
}

const live = (entry: Entry | null, now: number): entry is Entry =>
  entry !== null && (entry.expiresAt === undefined || entry.expiresAt > now)

/** A store over `kv` keeping each key `k` at `[...prefix, k]`. */
export function kvStore(kv: Deno.Kv, prefix: Deno.KvKey = ['kv']): KeyValueStore {
  async function get(key: string): Promise<string | null>
  async function get<T>(key: string, type: 'json'): Promise<T | null>
  async function get<T>(key: string, type?: 'json'): Promise<string | T | null> {
    const { value } = await kv.get<Entry>([...prefix, key])
    if (!live(value, Date.now())) return null
    return type === 'json' ? (JSON.parse(value.value) as T) : value.value
  }

  return {
    get,

    async put(key, value, options) {
      const ttl = options?.expirationTtl
      if (ttl === undefined) {
        await kv.set([...prefix, key], { value } satisfies Entry)
        return
      }
      const expireIn = Math.max(1, Math.ceil(ttl * 1000))
      const entry: Entry = { value, expiresAt: Date.now() + expireIn }
      await kv.set([...prefix, key], entry, { expireIn })
    },

    async delete(key) {
      await kv.delete([...prefix, key])
    },

    async list({ prefix: start, limit }): Promise<KeyValueListing> {
      // Keys sharing a string prefix are contiguous in Deno KV's order, beginning at the prefix.
      const keys: { name: string }[] = []
      const now = Date.now()
      const entries = kv.list<Entry>({ prefix, start: [...prefix, start] })
      for await (const { key, value } of entries) {
        const name = key[prefix.length]
        if (typeof name !== 'string' || !name.startsWith(start)) break
        if (!live(value, now)) continue
        keys.push({ name })
        if (limit !== undefined && keys.length >= limit) break
      }
      return { keys }
    },
  }
}

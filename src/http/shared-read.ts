// A read shared by every request of a location for a while: its value kept in the Cache API (one
// per data center, shared by its isolates) and in the isolate, so that however many requests
// come, and through however many addresses that show it, the read runs at most once per period
// and location. Concurrent misses in one isolate wait for the same read.
const CACHE_NAME = 'shared-reads'

interface Held {
  value: Promise<unknown>
  storedAt: number
}

const held = new Map<string, Held>()

/**
 * `read`'s value as of at most `maxAgeMs` ago. `name` and `version` make the key: a new version
 * (the caller's, e.g. the catalogue's) is a new key, and the old value is never seen again.
 */
export async function sharedRead<T>(
  name: string,
  version: string,
  maxAgeMs: number,
  read: () => Promise<T>,
  now = Date.now(),
): Promise<{ value: T; storedAt: number; fresh: boolean }> {
  const key = `https://cache.internal/shared/${encodeURIComponent(name)}/${encodeURIComponent(version)}`
  const mine = held.get(key)
  if (mine && now - mine.storedAt <= maxAgeMs) {
    return { value: (await mine.value) as T, storedAt: mine.storedAt, fresh: false }
  }
  const cache = await caches.open(CACHE_NAME)
  const hit = await cache.match(key)
  const storedAt = Date.parse(hit?.headers.get('Date') ?? '')
  if (hit && now - storedAt <= maxAgeMs) {
    const value = hit.json() as Promise<T>
    remember(key, { value, storedAt })
    return { value: await value, storedAt, fresh: false }
  }
  const value = read()
  remember(key, { value, storedAt: now })
  let result: T
  try {
    result = await value
  } catch (error) {
    // A failed read is nobody's answer: the next request reads again.
    held.delete(key)
    throw error
  }
  try {
    const stored = new Response(JSON.stringify(result), {
      headers: {
        'Content-Type': 'application/json',
        Date: new Date(now).toUTCString(),
        'Cache-Control': `max-age=${Math.ceil(maxAgeMs / 1000)}`,
      },
    })
    await cache.put(key, stored)
  } catch {
    // The value stands; other isolates of the location read it once more themselves.
  }
  return { value: result, storedAt: now, fresh: true }
}

function remember(key: string, entry: Held) {
  // A few names, each with its current version: older versions go as newer ones come.
  for (const k of held.keys())
    if (k !== key && k.startsWith(key.slice(0, key.lastIndexOf('/')))) held.delete(k)
  held.set(key, entry)
}

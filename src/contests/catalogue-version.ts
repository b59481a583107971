// The catalogue version in KV: part of every public cache key, replaced on every catalogue write.
// Each isolate keeps the version it last read for a few seconds, so a burst of cached reads costs
// one KV read rather than one each; a write made in the isolate is seen there at once, and other
// isolates see it within those seconds (KV itself may take up to a minute between locations).
import { newId } from '../lib/ids.ts'
import type { KeyValueStore } from '../ports/key-value.ts'

const KEY = 'catalogue:version'
/** How long an isolate trusts the version it read. */
export const VERSION_MEMO_MS = 5_000

const memo = new WeakMap<KeyValueStore, { version: string; readAt: number }>()

export async function catalogueVersion(kv: KeyValueStore): Promise<string> {
  const now = Date.now()
  const known = memo.get(kv)
  if (known && now - known.readAt < VERSION_MEMO_MS) return known.version
  const version = (await kv.get(KEY)) ?? 'initial'
  memo.set(kv, { version, readAt: now })
  return version
}

/** A fresh random version rather than a counter: concurrent writers need no read-modify-write. */
export async function bumpCatalogueVersion(kv: KeyValueStore): Promise<string> {
  const version = newId()
  await kv.put(KEY, version)
  memo.set(kv, { version, readAt: Date.now() })
  return version
}

// The catalogue version in KV: part of every public cache key, replaced on every catalogue write.
import { newId } from '../lib/ids.ts'
import type { KeyValueStore } from '../ports/key-value.ts'

const KEY = 'catalogue:version'

export async function catalogueVersion(kv: KeyValueStore): Promise<string> {
  return (await kv.get(KEY)) ?? 'initial'
}

/** A fresh random version rather than a counter: concurrent writers need no read-modify-write. */
export async function bumpCatalogueVersion(kv: KeyValueStore): Promise<string> {
  const version = newId()
  await kv.put(KEY, version)
  return version
}

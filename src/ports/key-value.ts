// The key-value store the core needs (catalogue version, anonymous rate windows, the dev outbox,
// watermarks, Google sign-in flows): the part of Workers KV it uses, so another runtime can supply
// its own store.

export interface KeyValueListing {
  keys: { name: string }[]
}

export interface KeyValueStore {
  get(key: string): Promise<string | null>
  get<T>(key: string, type: 'json'): Promise<T | null>
  /** `expirationTtl` in seconds; the store forgets the key after it. */
  put(key: string, value: string, options?: { expirationTtl?: number }): Promise<void>
  delete(key: string): Promise<void>
  list(options: { prefix: string; limit?: number }): Promise<KeyValueListing>
}

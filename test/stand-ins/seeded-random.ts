// Seeded pseudo-random numbers for fault injection, so that a run's faults can be replayed: the
// stand-in (Node) and the tests (workerd) both import it, so it uses nothing of either.

/** mulberry32: a small, fast 32-bit generator; the same seed gives the same numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** FNV-1a over the text's UTF-16 code units: a 32-bit seed from a key. */
export function hash32(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/**
 * The draw of the `n`th event named `key` under `seed`: the same whatever else happened before
 * or in between, so events that race (requests the Worker sends six at a time) keep their draws.
 */
export function keyedDraw(seed: number, key: string, n: number): number {
  return mulberry32(hash32(`${seed}|${key}|${n}`))()
}

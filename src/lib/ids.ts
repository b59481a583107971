// Record identifiers: 24 lowercase hex characters, 4 bytes of seconds then 8 random bytes.

const ID_PATTERN = /^[0-9a-f]{24}$/

export function newId(now: number = Date.now()): string {
  const bytes = new Uint8Array(12)
  new DataView(bytes.buffer).setUint32(0, Math.floor(now / 1000))
  crypto.getRandomValues(bytes.subarray(4))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

/**
 * The first 8 characters of every id made in the second of `ms`: ids made at `ms` or later sort at
 * or after it, so a range of ids is a range of creation times to the second.
 */
export const idSecond = (ms: number) =>
  Math.floor(ms / 1000)
    .toString(16)
    .padStart(8, '0')

export function isId(value: string): boolean {
  return ID_PATTERN.test(value)
}

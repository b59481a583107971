// Record identifiers: 24 lowercase hex characters, 4 bytes of seconds then 8 random bytes.

const ID_PATTERN = /^[0-9a-f]{24}$/

export function newId(now: number = Date.now()): string {
  const bytes = new Uint8Array(12)
  new DataView(bytes.buffer).setUint32(0, Math.floor(now / 1000))
  crypto.getRandomValues(bytes.subarray(4))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

export function isId(value: string): boolean {
  return ID_PATTERN.test(value)
}

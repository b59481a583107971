// Reads a table of words by a key from a request (a notice, an error reason) without reaching
// the object's inherited properties: ?notice=constructor must say nothing, not print a function.

export function wordsFor(
  table: Record<string, string>,
  key: string | undefined,
): string | undefined {
  return key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined
}

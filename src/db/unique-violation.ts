// Whether a D1 write failed on a unique index, wherever in the error's causes SQLite's words are.
export function isUniqueViolation(error: unknown, column: string): boolean {
  const words = `UNIQUE constraint failed: ${column}`
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e.message.includes(words)) return true
  }
  return false
}

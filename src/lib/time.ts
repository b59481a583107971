// Times are stored as epoch milliseconds and rendered as ISO 8601 UTC with milliseconds.

export const MINUTE_MS = 60_000
export const HOUR_MS = 60 * MINUTE_MS
export const DAY_MS = 24 * HOUR_MS

export function toIso(ms: number): string {
  return new Date(ms).toISOString()
}

export function toIsoOrUndefined(ms: number | null | undefined): string | undefined {
  return ms == null ? undefined : toIso(ms)
}

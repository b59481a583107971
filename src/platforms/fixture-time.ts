// Moving a recorded payload's times forward by whole weeks, so that a stand-in serving it later
// (npm start, npm run seed) still lists upcoming contests. Each platform's fixture routes say which
// of these its format needs; the recorded files themselves never change.

/** ISO 8601 with an offset or Z: "2026-11-29T21:00:00+09:00", "2026-11-29T12:00:00.000Z". */
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/
/** Naive ISO without an offset, in whatever zone the platform means: "2026-11-29T20:00:00". */
const NAIVE = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?$/

/** An ISO time moved by `shiftMs`, written in the offset it came with. */
export function shiftIso(text: string, shiftMs: number): string {
  const offset = /(Z|[+-]\d\d:?\d\d)$/.exec(text)?.[1]
  if (!offset) return shiftNaive(text, shiftMs)
  const shifted = new Date(Date.parse(text) + shiftMs)
  if (offset === 'Z') return shifted.toISOString()
  const sign = offset[0] === '-' ? -1 : 1
  const minutes = sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(-2)))
  const local = new Date(shifted.getTime() + minutes * 60_000).toISOString().slice(0, 19)
  return `${local}${offset}`
}

/** A naive time moved by `shiftMs`, keeping its separator and its lack of an offset. */
export function shiftNaive(text: string, shiftMs: number): string {
  const separator = text[10]
  const shifted = new Date(Date.parse(`${text.slice(0, 10)}T${text.slice(11)}Z`) + shiftMs)
  return shifted.toISOString().slice(0, text.length).replace('T', separator)
}

export interface JsonShift {
  /** Keys whose numbers are epoch seconds. */
  seconds?: readonly string[]
  /** Keys whose numbers (or numeric strings) are epoch milliseconds. */
  millis?: readonly string[]
  /** Keys whose strings are naive times (no offset). ISO strings with an offset always move. */
  naive?: readonly string[]
}

/** A JSON value with every time in it moved by `shiftMs`. */
export function shiftJsonValue(
  value: unknown,
  shiftMs: number,
  keys: JsonShift,
  key = '',
): unknown {
  if (Array.isArray(value)) return value.map((v) => shiftJsonValue(v, shiftMs, keys))
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, shiftJsonValue(v, shiftMs, keys, k)]),
    )
  }
  if (typeof value === 'number' && keys.seconds?.includes(key)) return value + shiftMs / 1000
  if (keys.millis?.includes(key)) {
    if (typeof value === 'number') return value + shiftMs
    if (typeof value === 'string' && /^\d+$/.test(value)) return String(Number(value) + shiftMs)
  }
  if (typeof value === 'string' && ISO.test(value)) return shiftIso(value, shiftMs)
  if (typeof value === 'string' && keys.naive?.includes(key) && NAIVE.test(value)) {
    return shiftNaive(value, shiftMs)
  }
  return value
}

/** The shift of a JSON fixture file's text. */
export function shiftJson(keys: JsonShift = {}) {
  return (text: string, shiftMs: number) =>
    JSON.stringify(shiftJsonValue(JSON.parse(text), shiftMs, keys))
}

/**
 * The moment every recorded payload sits around: Sunday 2026-11-22 12:00 UTC (21:00 in Tokyo,
 * 17:30 in India, 20:00 in Beijing). Tests that parse or sync the fixtures pass it as `now`.
 */
export const RECORDED_AT = Date.UTC(2026, 10, 22, 12, 0, 0)

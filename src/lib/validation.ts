// Zod helpers that word validation failures the way the spec does (class-validator style).
import { z } from '@hono/zod-openapi'
import type { ZodError } from 'zod'
import { isId } from './ids.ts'

/** Record ids are 12 bytes in hex (lib/ids.ts). */
const ID_LENGTH = 24

export function oneOf<const T extends readonly [string, ...string[]]>(field: string, values: T) {
  return z.enum(values, {
    error: () => `${field} must be one of the following values: ${values.join(', ')}`,
  })
}

export function intInRange(field: string, min: number, max: number, fallback: number) {
  return z.coerce
    .number({ error: () => `${field} must be an integer number` })
    .int({ error: () => `${field} must be an integer number` })
    .min(min, { error: () => `${field} must not be less than ${min}` })
    .max(max, { error: () => `${field} must not be greater than ${max}` })
    .default(fallback)
}

/**
 * A path parameter `id` holding a record id; anything else is a 400 `Invalid <kind> ID format`.
 * The id's pattern is anchored and of fixed length, so a long value costs no more than a short one.
 */
export function idParam(kind: string) {
  return z.object({
    id: z
      .string()
      .refine(isId, { error: `Invalid ${kind} ID format` })
      .openapi({
        param: { name: 'id', in: 'path' },
        minLength: ID_LENGTH,
        maxLength: ID_LENGTH,
        example: '6745a1f03c9e4b2a1d0e7f11',
      }),
  })
}

/**
 * The deepest page a list reaches by offset. SQLite walks past every skipped row, so an unbounded
 * offset lets one request scan a whole table; past this, callers narrow the list by its filters.
 */
export const MAX_OFFSET = 10_000

/** limit (1 to 100) and offset (0 to MAX_OFFSET), with the spec's bounds and messages. */
export function pagingFields(defaultLimit = 20) {
  return {
    limit: intInRange('limit', 1, 100, defaultLimit),
    offset: intInRange('offset', 0, MAX_OFFSET, 0),
  }
}

/**
 * The longest date-time worth reading: nanoseconds and an offset take 35 characters. Zod's format
 * accepts any number of fractional digits, so without this a date could be as long as the URL.
 */
export const MAX_DATE_LENGTH = 40

export function isoDate(field: string) {
  const message = `${field} must be a valid ISO 8601 date string`
  // Piped, so a value over the length gets the one message and is never matched against the format.
  return z
    .string({ error: () => message })
    .max(MAX_DATE_LENGTH, { error: () => message })
    .pipe(z.iso.datetime({ offset: true, error: () => message }))
    .openapi({ type: 'string', format: 'date-time', maxLength: MAX_DATE_LENGTH })
}

/** Flattens a ZodError into the array of messages the error body carries. */
export function validationMessages(error: ZodError): string[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => `property ${[...issue.path, key].join('.')} should not exist`)
    }
    const path = issue.path.join('.')
    // Refinements carry the spec's own sentences and field messages start with the field name;
    // only zod's generic wording needs the path put in front.
    const field = String(issue.path.at(-1) ?? '')
    if (!path || issue.code === 'custom' || issue.message.startsWith(field)) return [issue.message]
    return [`${path}: ${issue.message}`]
  })
}

// Zod helpers that word validation failures the way the spec does (class-validator style).
import { z } from '@hono/zod-openapi'
import type { ZodError } from 'zod'
import { isId } from './ids.ts'

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

/** A path parameter `id` holding a record id; anything else is a 400 `Invalid <kind> ID format`. */
export function idParam(kind: string) {
  return z.object({
    id: z
      .string()
      .refine(isId, { error: `Invalid ${kind} ID format` })
      .openapi({ param: { name: 'id', in: 'path' }, example: '6745a1f03c9e4b2a1d0e7f11' }),
  })
}

/** limit (1 to 100) and offset (0 or more), with the spec's bounds and messages. */
export function pagingFields(defaultLimit = 20) {
  return {
    limit: intInRange('limit', 1, 100, defaultLimit),
    offset: intInRange('offset', 0, Number.MAX_SAFE_INTEGER, 0),
  }
}

export function isoDate(field: string) {
  return z.iso.datetime({
    offset: true,
    error: () => `${field} must be a valid ISO 8601 date string`,
  })
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

// Zod schemas of the calendar endpoints: the public feed's filters, the feed file, the feed address.
import { z } from '@hono/zod-openapi'
import { CONTEST_TYPES, PLATFORMS } from '../contests/schemas.ts'
import { MAX_DURATION_MINUTES } from '../platforms/contest.ts'

/**
 * A comma-separated list of known values, repeats dropped ("codeforces,atcoder"). It is at most as
 * long as the list of every value once, so a list repeated to the length of the URL is refused
 * before it is split.
 */
function commaList<const T extends readonly [string, ...string[]]>(field: string, values: T) {
  const message = `${field} must be a comma-separated list of: ${values.join(', ')}`
  const known: readonly string[] = values
  const maxLength = values.join(',').length
  return z
    .string({ error: message })
    .max(maxLength, { error: `${field} must be at most ${maxLength} characters` })
    .pipe(
      z
        .string()
        .transform((text) => text.split(','))
        .refine((items) => items.every((item) => known.includes(item)), { error: message })
        .transform((items) => [...new Set(items)] as T[number][]),
    )
    .openapi({ type: 'string', maxLength, example: values.slice(0, 2).join(',') })
}

const minutes = (field: string) =>
  z.coerce
    .number({ error: `${field} must be a whole number of minutes` })
    .int({ error: `${field} must be a whole number of minutes` })
    .min(1, { error: `${field} must be between 1 and ${MAX_DURATION_MINUTES}` })
    .max(MAX_DURATION_MINUTES, {
      error: `${field} must be between 1 and ${MAX_DURATION_MINUTES}`,
    })
    .openapi({ type: 'integer', example: 120 })

/** Unknown keys are refused, so a misspelt filter is a 400 rather than a silently full feed. */
export const CalendarQuery = z
  .strictObject({
    platform: commaList('platform', PLATFORMS).optional(),
    type: commaList('type', CONTEST_TYPES).optional(),
    minDuration: minutes('minDuration').optional(),
    maxDuration: minutes('maxDuration').optional(),
  })
  .refine(
    (q) =>
      q.minDuration === undefined || q.maxDuration === undefined || q.minDuration <= q.maxDuration,
    {
      error: 'minDuration must not exceed maxDuration',
    },
  )

export type CalendarQueryInput = z.infer<typeof CalendarQuery>

// Anything but a feed token and `.ics` is a 404 (calendar/feeds.ts FEED_TOKEN, of fixed length).
export const FeedFileParam = z.object({
  file: z.string().openapi({
    param: { name: 'file', in: 'path' },
    maxLength: 47,
    description: 'The secret token of the feed address followed by `.ics`',
    example: 'q3J0bW9yZS1yYW5kb20tYnl0ZXMtdGhhbi10aGlzLi4u.ics',
  }),
})

export const CalendarFeedSchema = z
  .object({
    url: z.string().openapi({ example: 'https://alerts.example.com/calendar/q3J0bW9y....ics' }),
    webcalUrl: z
      .string()
      .openapi({ example: 'webcal://alerts.example.com/calendar/q3J0bW9y....ics' }),
  })
  .openapi('CalendarFeed')

/** An iCalendar answer in the OpenAPI document. */
export const icsBody = (description: string) => ({
  content: { 'text/calendar': { schema: z.string() } },
  description,
})

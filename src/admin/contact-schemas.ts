// Zod schemas of the contact form: the request body and the form's own response bodies (spec).
import { z } from '@hono/zod-openapi'
import type { ZodError } from 'zod'

export const ALL_FIELDS_REQUIRED = 'All fields are required.'
export const MESSAGE_SENT = 'Message sent successfully.'
export const SEND_FAILED = 'Failed to send message. Please try again later.'

// Only emptiness is checked (spec); the caps keep one message within a readable email and a
// small D1 row. 254 is the longest address SMTP can carry.
export const CONTACT_LIMITS = { name: 200, email: 254, subject: 200, message: 10_000 } as const

const field = (name: keyof typeof CONTACT_LIMITS, example: string) =>
  z
    .string({ error: ALL_FIELDS_REQUIRED })
    .trim()
    .min(1, { error: ALL_FIELDS_REQUIRED })
    .max(CONTACT_LIMITS[name], {
      error: `${name} must be at most ${CONTACT_LIMITS[name]} characters long`,
    })
    .openapi({ example })

export const ContactBody = z
  .strictObject(
    {
      name: field('name', 'Ada Lovelace'),
      email: field('email', 'ada@example.com'),
      subject: field('subject', 'A missing contest'),
      message: field('message', 'The AtCoder Heuristic Contest 050 is not listed.'),
    },
    // A body that is not an object (an array, null, a string) lacks every field.
    { error: (issue) => (issue.code === 'invalid_type' ? ALL_FIELDS_REQUIRED : undefined) },
  )
  .openapi('ContactMessage')

export const ContactResultSchema = z
  .object({ success: z.boolean(), message: z.string() })
  .openapi('ContactResult')

/**
 * The one message of a refused body: a missing, blank or non-string field first (the spec's
 * sentence), then an unknown key (in the API's usual wording), then a field over its cap.
 */
export function contactProblem(error: ZodError): string {
  const issues = error.issues
  if (issues.some((i) => i.code !== 'unrecognized_keys' && i.message === ALL_FIELDS_REQUIRED)) {
    return ALL_FIELDS_REQUIRED
  }
  const unknown = issues.find((i) => i.code === 'unrecognized_keys')
  if (unknown && unknown.code === 'unrecognized_keys') {
    return `property ${unknown.keys[0]} should not exist`
  }
  return issues[0]?.message ?? ALL_FIELDS_REQUIRED
}

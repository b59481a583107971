// Small builders for OpenAPI route declarations: JSON bodies and the error responses they share.
import { z } from '@hono/zod-openapi'

export const ErrorSchema = z
  .object({
    statusCode: z.number(),
    message: z.union([z.string(), z.array(z.string())]),
    error: z.string(),
  })
  .openapi('Error')

export function json<T>(schema: T, description: string) {
  return { content: { 'application/json': { schema } }, description }
}

export const errorResponse = (description: string) => json(ErrorSchema, description)

/** A route's required JSON request body: spread into `request`. */
export function jsonBody<T>(schema: T) {
  return { body: { content: { 'application/json': { schema } }, required: true } }
}

/** The `{message}` answer of endpoints that report an outcome in words. */
export const MessageSchema = z.object({ message: z.string() }).openapi('Message')

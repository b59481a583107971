// The offset pagination block of paginated lists: its schema and how it is computed.
import { z } from '@hono/zod-openapi'

export const PaginationSchema = z.object({
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
  hasNext: z.boolean(),
  hasPrev: z.boolean(),
})

/** `returned` is how many rows this page holds. */
export function pagination(total: number, limit: number, offset: number, returned: number) {
  return { total, limit, offset, hasNext: offset + returned < total, hasPrev: offset > 0 }
}

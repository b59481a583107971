// The history page's address: the API's list filters (status, type, channel) and page, validated by the
// API's own field schemas, and the same query rebuilt for links, form actions and redirects, so
// a mark-read or a retry comes back to the page and filters it was sent from.
import { z } from '@hono/zod-openapi'
import { NotificationListQuery } from '../../notifications/api/schemas.ts'

/** The API's default page size: a page holds what a person reads through. */
export const HISTORY_PAGE_SIZE = 20

const api = NotificationListQuery.shape

/** Unknown keys are ignored, as the API's query ignores them (shared links carry tags). */
export const HistoryQuery = z.object({
  status: api.status,
  type: api.type,
  channel: api.channel,
  page: api.page,
  notice: z.string().max(40).optional(),
})

export type HistoryFilters = Omit<z.infer<typeof HistoryQuery>, 'notice'>

export type HistoryQueryResult =
  { ok: true; filters: HistoryFilters; notice?: string } | { ok: false; errors: string[] }

/**
 * The page's filters from a query: an empty value is "no choice" (what the form's first option
 * sends), and a bad value is an error to show rather than silently every notification.
 */
export function readHistoryQuery(query: Record<string, string>): HistoryQueryResult {
  const given = Object.fromEntries(Object.entries(query).filter(([, value]) => value !== ''))
  const parsed = HistoryQuery.safeParse(given)
  if (!parsed.success) return { ok: false, errors: parsed.error.issues.map((i) => i.message) }
  const { notice, ...filters } = parsed.data
  return { ok: true, filters, notice }
}

/** `?status=..&type=..&page=..` (only what differs from the defaults), plus a notice. */
export function historyQueryString(filters: Partial<HistoryFilters>, notice?: string): string {
  const params = new URLSearchParams()
  if (filters.status) params.set('status', filters.status)
  if (filters.type) params.set('type', filters.type)
  if (filters.channel) params.set('channel', filters.channel)
  if (filters.page && filters.page > 1) params.set('page', String(filters.page))
  if (notice) params.set('notice', notice)
  const text = params.toString()
  return text ? `?${text}` : ''
}

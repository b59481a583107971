// What the followed-contests pages accept, from the API's own schemas: the list's paging (offset),
// the follow-or-mute body ({mode}), the contest id's format, and the query of the page of one
// contest (the home page's Follow and Mute buttons send `mode` there).
import { z } from '@hono/zod-openapi'
import {
  ContestIdParam,
  SubscriptionBody,
  SubscriptionListQuery,
} from '../../users/subscription-schemas.ts'

export { SubscriptionBody as ChoiceForm }

/** The API's default page size. */
export const SUBSCRIPTIONS_PAGE_SIZE = 50

/** The list's query; unknown keys are ignored, as the API's query ignores them. */
export const SubscriptionsQuery = z.object({
  offset: SubscriptionListQuery.shape.offset,
  notice: z.string().max(40).optional(),
})

/** The page of one contest: `mode` names the button pressed on the home page, if any. */
export const ChoiceQuery = z.object({ mode: SubscriptionBody.shape.mode.optional() })

/** "Back to the default" sends nothing but its token. */
export const ClearForm = z.strictObject({})

export const LABELS = { mode: 'Choice' }

/** Whether `id` has the form of a contest id (the API answers others 400 before any read). */
export const isContestId = (id: string) => ContestIdParam.safeParse({ id }).success

/** `?offset=..` when not the first page, plus a notice. */
export function subscriptionsQueryString(offset: number, notice?: string): string {
  const params = new URLSearchParams()
  if (offset > 0) params.set('offset', String(offset))
  if (notice) params.set('notice', notice)
  const text = params.toString()
  return text ? `?${text}` : ''
}

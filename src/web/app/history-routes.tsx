// GET /app/history and its buttons: mark one read, mark all read, retry a failed one. The same
// functions the API's history routes call, always scoped to the signed-in user (admins included:
// this is their own history, not the admin view), with the API's retry limit.
import { z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { AppEnv } from '../../app-env.ts'
import { createDb } from '../../db/client.ts'
import { rateLimit, RULES } from '../../http/rate-limit.ts'
import { createRouter } from '../../http/router.ts'
import { notifier } from '../../notifications/context.ts'
import { retryNotification } from '../../notifications/delivery/retry.ts'
import { listNotifications, markAllRead, markRead } from '../../notifications/history.ts'
import { withResultWords } from '../../notifications/kinds/result-words.ts'
import { csrfToken, requireCsrf } from './csrf.ts'
import { readForm } from './form-body.ts'
import { HistoryPage } from './history-page.tsx'
import {
  HISTORY_PAGE_SIZE,
  historyQueryString,
  readHistoryQuery,
  type HistoryFilters,
} from './history-query.ts'
import { wordsFor } from './lookup.ts'
import { notFoundPage } from './not-found-page.tsx'
import { currentWebSession, requireWebUser } from './web-session.ts'

const NOTICES: Record<string, string> = {
  read: 'Marked as read.',
  'all-read': 'Every notification is marked as read.',
  retried: 'Sent again, and delivered this time.',
}

// The same answer for an id that does not exist and one of another account: neither says more.
const NOT_YOURS =
  'You have no notification with that id. It may have been deleted after its time was up.'

// The buttons' forms carry only their CSRF token; anything else was not sent by this page.
const ButtonForm = z.strictObject({})

async function historyPage(
  c: Context<AppEnv>,
  filters: HistoryFilters,
  words: { notice?: string; errors?: string[] } = {},
  status: ContentfulStatusCode = 200,
) {
  const session = currentWebSession(c)
  const { notifications, total } = await listNotifications(
    createDb(c.env.DB),
    {
      ...filters,
      limit: HISTORY_PAGE_SIZE,
      userId: session.user.id,
    },
    withResultWords,
  )
  const page = (
    <HistoryPage
      session={session}
      csrf={await csrfToken(c)}
      filters={filters}
      notifications={notifications}
      total={total}
      {...words}
    />
  )
  return c.html(page, status)
}

/** The page a button was pressed on (its action's query); a bad query means the first page. */
function sentFrom(c: Context<AppEnv>): HistoryFilters {
  const read = readHistoryQuery(c.req.query())
  return read.ok ? read.filters : { page: 1 }
}

const backTo = (c: Context<AppEnv>, filters: HistoryFilters, notice: keyof typeof NOTICES) =>
  c.redirect(`/app/history${historyQueryString(filters, notice)}`, 303)

/** A button's form, checked; undefined when it is fine, else the page that says what was wrong. */
async function refusedForm(c: Context<AppEnv>, filters: HistoryFilters) {
  const form = await readForm(c, ButtonForm, {})
  return form.ok ? undefined : historyPage(c, filters, { errors: form.errors.form }, 400)
}

export const historyRoutes = createRouter()

historyRoutes
  .get('/history', requireWebUser, async (c) => {
    const read = readHistoryQuery(c.req.query())
    if (!read.ok) return historyPage(c, { page: 1 }, { errors: read.errors }, 400)
    return historyPage(c, read.filters, { notice: wordsFor(NOTICES, read.notice) })
  })
  .post('/history/read-all', requireCsrf, requireWebUser, async (c) => {
    const filters = sentFrom(c)
    const refused = await refusedForm(c, filters)
    if (refused) return refused
    await markAllRead(createDb(c.env.DB), currentWebSession(c).user.id, Date.now())
    return backTo(c, filters, 'all-read')
  })
  .post('/history/:id/read', requireCsrf, requireWebUser, async (c) => {
    const filters = sentFrom(c)
    const refused = await refusedForm(c, filters)
    if (refused) return refused
    const db = createDb(c.env.DB)
    // The owner is part of the update's WHERE: another account's id changes nothing.
    const owner = currentWebSession(c).user.id
    const marked = await markRead(db, c.req.param('id'), owner, Date.now(), withResultWords)
    if (!marked) return notFoundPage(c, NOT_YOURS)
    return backTo(c, filters, 'read')
  })
  .post(
    '/history/:id/retry',
    requireCsrf,
    requireWebUser,
    rateLimit(RULES.notificationRetry),
    async (c) => {
      const filters = sentFrom(c)
      const refused = await refusedForm(c, filters)
      if (refused) return refused
      const owner = currentWebSession(c).user.id
      const answer = await retryNotification(notifier(c.env), c.req.param('id'), owner, Date.now())
      if (answer.status === 200) return backTo(c, filters, 'retried')
      if (answer.status === 404) return notFoundPage(c, NOT_YOURS)
      // The API's refusals in its own words and status: nothing to retry (400), a delivery being
      // sent this moment (409), the provider failed again (502).
      return historyPage(c, filters, { errors: [answer.body.error] }, answer.status)
    },
  )

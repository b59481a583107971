// /app/subscriptions: the followed and muted contests, the page of one contest, and the posts that
// follow, mute or go back to the default. The same functions as the API's follow and mute routes
// (users/contest-choices.ts), for the signed-in user only.
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { AppEnv } from '../../app-env.ts'
import { findContest } from '../../contests/queries.ts'
import { createDb } from '../../db/client.ts'
import { badRequest } from '../../lib/errors.ts'
import { createRouter } from '../../http/router.ts'
import { chooseForContest, clearForContest, listChoices } from '../../users/contest-choices.ts'
import { subscriptionOf } from '../../users/contest-subscriptions.ts'
import { csrfToken, requireCsrf } from './csrf.ts'
import { readForm } from './form-body.ts'
import { wordsFor } from './lookup.ts'
import { notFoundPage } from './not-found-page.tsx'
import { refusal } from './refusal.ts'
import { ChoicePage } from './subscriptions-choice-page.tsx'
import {
  ChoiceForm,
  ChoiceQuery,
  ClearForm,
  isContestId,
  LABELS,
  SUBSCRIPTIONS_PAGE_SIZE,
  SubscriptionsQuery,
  subscriptionsQueryString,
} from './subscriptions-forms.ts'
import { SubscriptionsPage } from './subscriptions-page.tsx'
import { currentWebSession, requireWebUser } from './web-session.ts'

const NOTICES: Record<string, string> = {
  follow: 'Followed: you will be reminded of this contest.',
  mute: 'Muted: you will not be reminded of this contest.',
  cleared: 'Back to your settings for this contest.',
}

const NO_CONTEST =
  'No contest has that id. It may have ended and left the list, or the link is mistyped.'

async function listPage(
  c: Context<AppEnv>,
  offset: number,
  words: { notice?: string; errors?: string[] } = {},
  status: ContentfulStatusCode = 200,
) {
  const session = currentWebSession(c)
  const { entries, total } = await listChoices(createDb(c.env.DB), {
    userId: session.user.id,
    limit: SUBSCRIPTIONS_PAGE_SIZE,
    offset,
  })
  const page = (
    <SubscriptionsPage
      session={session}
      csrf={await csrfToken(c)}
      entries={entries}
      total={total}
      offset={offset}
      now={Date.now()}
      {...words}
    />
  )
  return c.html(page, status)
}

/** The list page a button was pressed on (its action's query); the first page otherwise. */
function sentFrom(c: Context<AppEnv>): number {
  const read = SubscriptionsQuery.safeParse(c.req.query())
  return read.success ? read.data.offset : 0
}

const backTo = (c: Context<AppEnv>, offset: number, notice: keyof typeof NOTICES) =>
  c.redirect(`/app/subscriptions${subscriptionsQueryString(offset, notice)}`, 303)

/** The contest the path names; a malformed id names none (the API answers it 400, a page 404). */
async function contestOf(c: Context<AppEnv>) {
  const id = c.req.param('contestId') ?? ''
  return isContestId(id) ? findContest(createDb(c.env.DB), id) : undefined
}

export const subscriptionRoutes = createRouter()

subscriptionRoutes
  .get('/subscriptions', requireWebUser, async (c) => {
    const read = SubscriptionsQuery.safeParse(c.req.query())
    if (!read.success) {
      return listPage(c, 0, { errors: read.error.issues.map((i) => i.message) }, 400)
    }
    return listPage(c, read.data.offset, { notice: wordsFor(NOTICES, read.data.notice) })
  })
  .get('/subscriptions/:contestId', requireWebUser, async (c) => {
    const asked = ChoiceQuery.safeParse(c.req.query())
    if (!asked.success) throw badRequest(asked.error.issues.map((i) => i.message).join(' '))
    const contest = await contestOf(c)
    if (!contest) return notFoundPage(c, NO_CONTEST)
    const session = currentWebSession(c)
    const db = createDb(c.env.DB)
    const current = await subscriptionOf(db, session.user.id, contest.id)
    const page = (
      <ChoicePage
        session={session}
        csrf={await csrfToken(c)}
        contest={contest}
        current={current?.mode}
        asked={asked.data.mode}
        now={Date.now()}
      />
    )
    return c.html(page)
  })
  .post('/subscriptions/:contestId', requireCsrf, requireWebUser, async (c) => {
    const offset = sentFrom(c)
    const form = await readForm(c, ChoiceForm, LABELS)
    if (!form.ok) {
      const errors = [...Object.values(form.errors.fields), ...form.errors.form]
      return listPage(c, offset, { errors }, 400)
    }
    const userId = currentWebSession(c).user.id
    const contestId = c.req.param('contestId')
    if (!isContestId(contestId)) return notFoundPage(c, NO_CONTEST)
    try {
      await chooseForContest(createDb(c.env.DB), { userId, contestId, ...form.data }, Date.now())
    } catch (error) {
      refusal(error, [404])
      return notFoundPage(c, NO_CONTEST)
    }
    return backTo(c, offset, form.data.mode)
  })
  .post('/subscriptions/:contestId/clear', requireCsrf, requireWebUser, async (c) => {
    const offset = sentFrom(c)
    const form = await readForm(c, ClearForm, {})
    if (!form.ok) return listPage(c, offset, { errors: form.errors.form }, 400)
    const userId = currentWebSession(c).user.id
    const contestId = c.req.param('contestId')
    if (!isContestId(contestId)) return notFoundPage(c, NO_CONTEST)
    try {
      await clearForContest(createDb(c.env.DB), { userId, contestId })
    } catch (error) {
      refusal(error, [404])
      return notFoundPage(c, NO_CONTEST)
    }
    return backTo(c, offset, 'cleared')
  })

// /app/handles: link an own handle, check its proof (the token, or on Codeforces a compilation
// error to a challenge's problem), remove it, and see a proven one's rating chart; the same
// functions and limits as /users/handles (results/), as forms that work without JavaScript.
// Another account's handle id is the not-found page.
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { AppEnv } from '../../app-env.ts'
import { createDb } from '../../db/client.ts'
import { rateLimit } from '../../http/rate-limit.ts'
import { createRouter } from '../../http/router.ts'
import { ApiError } from '../../lib/errors.ts'
import { isId } from '../../lib/ids.ts'
import { HANDLE_RULES } from '../../results/handle-routes.ts'
import { issueChallenge, proveBySubmission } from '../../results/challenge.ts'
import { HandleLinkBody, VerifyBody } from '../../results/handle-schemas.ts'
import { findHandle, linkHandle, listHandles, removeHandle } from '../../results/handles.ts'
import { handleHistory } from '../../results/history.ts'
import { noResultsMessage, resultsJudge, resultsRequest } from '../../results/judges.ts'
import { proveHandle } from '../../results/prove.ts'
import { csrfToken, requireCsrf } from './csrf.ts'
import { noErrors, readForm, type FormErrors } from './form-body.ts'
import { HandleChartPage, HandlesPage } from './handles-page.tsx'
import { notFoundPage } from './not-found-page.tsx'
import { ClearForm } from './subscriptions-forms.ts'
import { currentWebSession, requireWebUser } from './web-session.ts'

const NOT_YOURS = 'Your account has no such handle.'
const LABELS = { platform: 'Judge', handle: 'Handle' }
const NOTICES: Record<string, string> = {
  linked: 'Linked: place the token in your profile, then check the proof.',
  challenged:
    'Submit a compilation error to the problem named below before its deadline, then check.',
  proven: 'Proven: the handle is yours.',
  removed: 'Removed.',
}

async function page(
  c: Context<AppEnv>,
  more: { notice?: string; errors?: FormErrors; values?: Record<string, string> } = {},
  status: ContentfulStatusCode = 200,
) {
  const session = currentWebSession(c)
  const handles = await listHandles(createDb(c.env.DB), session.user.id, 'OWN')
  return c.html(
    <HandlesPage
      session={session}
      csrf={await csrfToken(c)}
      handles={handles}
      now={Date.now()}
      {...more}
    />,
    status,
  )
}

/** A refusal of the results functions (4xx, or the judge's 502/503) said on the page. */
function refused(c: Context<AppEnv>, error: unknown) {
  if (!(error instanceof ApiError) || error.status < 400 || error.status === 500) throw error
  const errors = noErrors()
  errors.form.push(error.message)
  return page(c, { errors }, error.status as ContentfulStatusCode)
}

export const handleRoutes = createRouter()

handleRoutes
  .get('/handles', requireWebUser, (c) => page(c, { notice: NOTICES[c.req.query('done') ?? ''] }))
  .post('/handles', requireCsrf, requireWebUser, rateLimit(HANDLE_RULES.link), async (c) => {
    const form = await readForm(c, HandleLinkBody, LABELS)
    if (!form.ok) return page(c, { errors: form.errors, values: form.values }, 400)
    if (!resultsJudge(form.data.platform)) {
      const errors = noErrors()
      errors.fields.platform = noResultsMessage(form.data.platform)
      return page(c, { errors, values: form.values }, 400)
    }
    const userId = currentWebSession(c).user.id
    try {
      await linkHandle(createDb(c.env.DB), { userId, ...form.data, relation: 'OWN' }, Date.now())
    } catch (error) {
      return refused(c, error)
    }
    return c.redirect('/app/handles?done=linked', 303)
  })
  .post(
    '/handles/:id/verify',
    requireCsrf,
    requireWebUser,
    rateLimit(HANDLE_RULES.verify),
    async (c) => {
      const id = c.req.param('id')
      if (!isId(id)) return notFoundPage(c, NOT_YOURS)
      // The token's button sends nothing; the challenge's sends method=submission.
      const form = await readForm(c, VerifyBody, {})
      if (!form.ok) return page(c, { errors: form.errors }, 400)
      const now = Date.now()
      const userId = currentWebSession(c).user.id
      const deps = {
        request: (judge: Parameters<typeof resultsRequest>[1]) => resultsRequest(c.env, judge, now),
      }
      const prove = form.data.method === 'submission' ? proveBySubmission : proveHandle
      try {
        await prove(createDb(c.env.DB), deps, { userId, id }, now)
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return notFoundPage(c, NOT_YOURS)
        return refused(c, error)
      }
      return c.redirect('/app/handles?done=proven', 303)
    },
  )
  .post(
    '/handles/:id/challenge',
    requireCsrf,
    requireWebUser,
    rateLimit(HANDLE_RULES.challenge),
    async (c) => {
      const id = c.req.param('id')
      if (!isId(id)) return notFoundPage(c, NOT_YOURS)
      const form = await readForm(c, ClearForm, {})
      if (!form.ok) return page(c, { errors: form.errors }, 400)
      const userId = currentWebSession(c).user.id
      try {
        await issueChallenge(createDb(c.env.DB), { userId, id }, Date.now())
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return notFoundPage(c, NOT_YOURS)
        return refused(c, error)
      }
      return c.redirect('/app/handles?done=challenged', 303)
    },
  )
  .post('/handles/:id/remove', requireCsrf, requireWebUser, async (c) => {
    const id = c.req.param('id')
    if (!isId(id)) return notFoundPage(c, NOT_YOURS)
    const form = await readForm(c, ClearForm, {})
    if (!form.ok) return page(c, { errors: form.errors }, 400)
    const userId = currentWebSession(c).user.id
    if (!(await removeHandle(createDb(c.env.DB), userId, id, 'OWN'))) {
      return notFoundPage(c, NOT_YOURS)
    }
    return c.redirect('/app/handles?done=removed', 303)
  })
  .get('/handles/:id', requireWebUser, rateLimit(HANDLE_RULES.history), async (c) => {
    const id = c.req.param('id')
    const session = currentWebSession(c)
    const row = isId(id)
      ? await findHandle(createDb(c.env.DB), session.user.id, id, 'OWN')
      : undefined
    const judge = row && resultsJudge(row.platform)
    if (!row || !judge) return notFoundPage(c, NOT_YOURS)
    const now = Date.now()
    try {
      const history = await handleHistory(
        c.env.KV,
        judge,
        () => resultsRequest(c.env, judge, now),
        row.handle,
      )
      return c.html(
        <HandleChartPage session={session} csrf={await csrfToken(c)} row={row} history={history} />,
      )
    } catch (error) {
      return refused(c, error)
    }
  })

// The settings page's push requests, made by its script (src/web/assets/app-script.ts) with the
// cookie session and the CSRF token in X-CSRF-Token: POST /app/settings/push/subscribe, DELETE
// /push/unsubscribe and POST /push/test. The functions, schemas and limits are those of
// POST and DELETE /users/push-subscriptions and POST /users/push-subscriptions/test; the answers
// are the API's JSON, errors too, since a script reads them and shows their message.
import type { Context, MiddlewareHandler } from 'hono'
import type { ZodType } from 'zod'
import type { AppEnv } from '../../app-env.ts'
import { pushEndpointProblem } from '../../channels/push/push-target.ts'
import { createDb } from '../../db/client.ts'
import { renderError } from '../../http/errors.ts'
import { rateLimit, RULES } from '../../http/rate-limit.ts'
import { createRouter } from '../../http/router.ts'
import { badRequest, notFound, unauthorized } from '../../lib/errors.ts'
import { validationMessages } from '../../lib/validation.ts'
import { sendTestPush } from '../../notifications/api/test-push.ts'
import { removePushSubscription, savePushSubscription } from '../../users/push-subscriptions.ts'
import { PushEndpointBody, PushSubscriptionBody } from '../../users/schemas.ts'
import { toPushSubscription } from '../../users/serialize.ts'
import { describeTestPush } from '../push-routes.ts'
import { requireCsrf } from './csrf.ts'
import { PUSH_PATHS } from './settings-push-paths.ts'
import { webSession } from './web-session.ts'

/** The session's user; a script gets 401 in JSON, not the sign-in page a redirect would bring. */
const sessionOrRefuse: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!(await webSession(c))) throw unauthorized('Your session has ended: sign in again')
  await next()
}

async function userIdOf(c: Context<AppEnv>): Promise<string> {
  const session = await webSession(c)
  if (!session) throw unauthorized('Your session has ended: sign in again')
  return session.user.id
}

/** The JSON body checked by the API's schema, refused in the API's words. */
async function jsonBody<T>(c: Context<AppEnv>, schema: ZodType<T>): Promise<T> {
  const body = await c.req.json<unknown>().catch(() => undefined)
  if (body === undefined) throw badRequest('The body must be JSON')
  const parsed = schema.safeParse(body)
  if (!parsed.success) throw badRequest(validationMessages(parsed.error))
  return parsed.data
}

const path = (full: string) => full.replace(/^\/app/, '')

export const settingsPushRoutes = createRouter()

// Errors in the API's JSON shape, not the pages the rest of /app answers with.
settingsPushRoutes.onError(renderError)

settingsPushRoutes
  .post(
    path(PUSH_PATHS.subscribe),
    requireCsrf,
    sessionOrRefuse,
    rateLimit(RULES.pushSubscriptions),
    async (c) => {
      const input = await jsonBody(c, PushSubscriptionBody)
      const refused = pushEndpointProblem(c.env, input.endpoint)
      if (refused) throw badRequest([refused])
      const db = createDb(c.env.DB)
      const { row, created } = await savePushSubscription(db, await userIdOf(c), input, Date.now())
      return c.json(toPushSubscription(row), created ? 201 : 200)
    },
  )
  .delete(
    path(PUSH_PATHS.unsubscribe),
    requireCsrf,
    sessionOrRefuse,
    rateLimit(RULES.pushSubscriptions),
    async (c) => {
      const { endpoint } = await jsonBody(c, PushEndpointBody)
      const db = createDb(c.env.DB)
      if (!(await removePushSubscription(db, await userIdOf(c), endpoint))) {
        throw notFound('Push subscription not found')
      }
      return c.json({ message: 'Push subscription removed' }, 200)
    },
  )
  .post(
    path(PUSH_PATHS.test),
    requireCsrf,
    sessionOrRefuse,
    rateLimit(RULES.pushTest),
    async (c) => {
      const db = createDb(c.env.DB)
      const result = await sendTestPush(c.env, db, await userIdOf(c), Date.now())
      if (result.enabled && result.subscriptions === 0) {
        throw badRequest('No push subscription: turn push notifications on in a browser first')
      }
      return c.json({ ...result, message: describeTestPush(result) }, 200)
    },
  )

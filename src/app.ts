// Builds the Hono app from its feature routers; runtime-agnostic (Workers, Deno, tests).
import { cors } from 'hono/cors'
import { requestId } from 'hono/request-id'
import { secureHeaders } from 'hono/secure-headers'
import { deleteUser } from './account/deletion.ts'
import { accountRoutes, recoveryRoutes } from './account/routes.ts'
import { destinationRemovals } from './account/unlink-link.ts'
import { contactRoutes } from './admin/contact-routes.ts'
import { adminRoutes } from './admin/routes.ts'
import { googleRoutes } from './auth/google-routes.ts'
import { phoneRoutes } from './auth/phone-routes.ts'
import { changeUserRole } from './auth/roles.ts'
import { authRoutes } from './auth/routes.ts'
import { sessionChecks } from './auth/sessions.ts'
import { contestCalendarRoutes } from './calendar/contest-routes.ts'
import { privateFeedRoutes } from './calendar/feed-routes.ts'
import { communityApiRoutes } from './communities/routes.ts'
import { publicCalendarRoutes } from './calendar/public-routes.ts'
import { calendarUserRoutes } from './calendar/user-routes.ts'
import { outboxRoutes } from './channels/outbox.ts'
import { contestAdminRoutes } from './contests/admin-routes.ts'
import { contestRoutes } from './contests/routes.ts'
import { requestBodyLimit } from './http/body-limit.ts'
import type { ClientAddress } from './http/client-address.ts'
import { createRouter } from './http/router.ts'
import { renderError, renderNotFound } from './http/errors.ts'
import { generalRateLimit } from './http/rate-limit.ts'
import { providerEventRoutes } from './notifications/api/provider-event-routes.ts'
import { notificationRoutes } from './notifications/api/routes.ts'
import { resourceRoutes } from './resources/routes.ts'
import { resultCheckRoutes } from './results/check-routes.ts'
import { resultUserRoutes } from './results/handle-routes.ts'
import { submissionRoutes } from './resources/submission-routes.ts'
import { platformRoutes } from './sync/platform-routes.ts'
import { platformsSnapshot } from './sync/platform-view.ts'
import { syncRoutes } from './sync/routes.ts'
import { lastSuccessfulSync } from './sync/runs.ts'
import { muteLinkRoutes } from './users/mute-routes.ts'
import { UNSUBSCRIBE_PATH } from './users/unsubscribe-link.ts'
import { unsubscribeRoutes } from './users/unsubscribe-routes.ts'
import { telegramUserRoutes } from './channels/telegram/flow/link-routes.ts'
import { telegramWebhookRoutes } from './channels/telegram/flow/webhook-routes.ts'
import { discordInteractionRoutes } from './channels/discord/flow/interaction-routes.ts'
import { userRoutes } from './users/routes.ts'
import { testNotificationRoutes } from './notifications/api/test-send-routes.ts'
import { contestSubscriptionRoutes } from './users/subscription-routes.ts'
import { appPageHeaders, limitsAsPages } from './web/app/page-answers.tsx'
import { webAppRoutes } from './web/app/routes.ts'
import { webSessionUser } from './web/app/web-session.ts'
import { assetRoutes } from './web/asset-routes.ts'
import { docsRoutes } from './web/docs-routes.tsx'
import { homeRoutes } from './web/home-routes.tsx'
import { statusRoutes } from './web/status-routes.tsx'
import { pushRoutes } from './web/push-routes.ts'
import { serviceWorkerRoutes } from './web/service-worker.ts'
import { emitContestCreated } from './webhooks/contest-events.ts'
import { webhookRoutes } from './webhooks/routes.ts'
import { CRONS } from './jobs/cron.ts'

export interface AppOptions {
  /** The runtime's answer to "who sent this request": every per-address limit keys on it. */
  clientAddress: ClientAddress
}

type Router = ReturnType<typeof createRouter>

/** The routers that share a mount path, as one router that tries them in the order given. */
function mountedTogether(...routers: Router[]): Router {
  const together = createRouter()
  for (const router of routers) together.route('/', router)
  return together
}

export function createApp(options: AppOptions) {
  const app = createRouter()

  app.use(requestId())
  app.use(secureHeaders({ crossOriginResourcePolicy: 'cross-origin' }))
  // Bearer tokens, never cookies: any origin may call the API without credentials.
  app.use(
    cors({
      origin: '*',
      allowHeaders: ['Authorization', 'Content-Type', 'If-None-Match'],
      allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      exposeHeaders: [
        'X-Request-Id',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'Retry-After',
        'ETag',
      ],
      maxAge: 86400,
    }),
  )

  // What every later middleware may ask, set once: the client's address (from the runtime's port,
  // before anything counts or records it) and auth's session checks, which the guards below http/
  // cannot import, and the web app's session lookup, which the limits count a browser's user by.
  app.use(async (c, next) => {
    c.set('clientAddress', options.clientAddress(c))
    c.set('sessionChecks', sessionChecks)
    c.set('webSessionUser', webSessionUser)
    await next()
  })
  // The web app's pages get their headers and a page for a refusal of the general limit too,
  // which answers before the web app's router (and its own such middleware) is reached.
  app.use('/app/*', appPageHeaders, limitsAsPages)
  app.use(generalRateLimit)
  // After the general limit (a refused caller's body is never read), before any route reads one.
  app.use(requestBodyLimit)

  // One router per mount path; within it, routers are tried in the order given.
  app.route(
    '/auth',
    mountedTogether(
      authRoutes({ listDestinations: destinationRemovals }),
      recoveryRoutes,
      googleRoutes,
    ),
  )
  app.route(
    '/users',
    // The calendar, Telegram and the judge handles first: the users router's GET and admin
    // DELETE /{id} would take /calendar, /telegram, /handles and /friends.
    mountedTogether(
      calendarUserRoutes,
      telegramUserRoutes,
      testNotificationRoutes,
      resultUserRoutes,
      userRoutes({ deleteAccount: deleteUser, changeUserRole }),
      contestSubscriptionRoutes,
    ),
  )
  app.route('/users/phone', phoneRoutes)
  // The web app's push: the VAPID public key and the test push (users/ holds the subscriptions).
  app.route('/users/push-subscriptions', pushRoutes)
  app.route('/dev', outboxRoutes)
  app.route(
    '/contests',
    mountedTogether(
      publicCalendarRoutes,
      contestCalendarRoutes,
      contestRoutes({ lastSyncOf: lastSuccessfulSync, platformsSnapshot }),
      contestAdminRoutes(emitContestCreated),
      syncRoutes,
      resultCheckRoutes,
    ),
  )
  app.route('/platforms', platformRoutes)
  app.route('/notifications', notificationRoutes)
  // The Discord channels and Telegram groups an account claimed.
  app.route('/communities', communityApiRoutes)
  app.route('/calendar', privateFeedRoutes)
  // The mute link of reminder emails: signed, so it needs no sign-in (HTML pages, not JSON).
  app.route('/subscriptions', muteLinkRoutes)
  // The one-click unsubscribe link of optional emails (RFC 8058): signed, HTML pages as well.
  app.route(UNSUBSCRIBE_PATH, unsubscribeRoutes)
  // Providers' signed reports about what they sent (Resend: bounces and complaints).
  app.route('/providers', providerEventRoutes)
  // The Telegram bot's webhook: signed with the secret given to setWebhook.
  app.route('/telegram', telegramWebhookRoutes)
  // The Discord application's interactions: signed by Discord with Ed25519.
  app.route('/discord', discordInteractionRoutes)
  // The second API area: same users, same tokens, same base address.
  app.route('/contact', contactRoutes)
  app.route('/admin', adminRoutes)
  app.route('/user', accountRoutes)
  // Submissions first: the resource router's /{id} would otherwise take /submissions.
  app.route('/resources', mountedTogether(submissionRoutes, resourceRoutes))
  app.route('/webhooks', webhookRoutes)
  // The web app: pages for people, and the files they load (no inline script or style).
  app.route('/', homeRoutes)
  // The service's health for anyone: its cron jobs named by the jobs' router.
  app.route(
    '/',
    statusRoutes(Object.entries(CRONS).map(([cron, job]) => ({ name: job.name, cron }))),
  )
  app.route('/assets', assetRoutes)
  // The signed-in web app: cookie sessions and CSRF-checked forms (never the API's bearer tokens).
  // Mounted with the slash, so its home page is /app/ (Hono joins '/app' and '/' as '/app').
  app.route('/app/', webAppRoutes)
  // The push service worker at the root, so its scope is every page of the origin.
  app.route('/', serviceWorkerRoutes)

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
  })
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Contest Alert Service',
      version: '1.0.0',
      description:
        'Programming contests from Codeforces, LeetCode, CodeChef and AtCoder, with alerts.',
    },
  })
  // The API reference: a page and its script, both from this origin.
  app.route('/docs', docsRoutes)

  app.notFound(renderNotFound)
  app.onError(renderError)
  return app
}

export type App = ReturnType<typeof createApp>

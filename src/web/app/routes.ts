// The web app under /app: every page's headers (CSP, no-store), limits answered as pages, errors
// as pages, and the pages' routers. A later page adds its router here, above notFoundRoutes
// (which stays last, or it would answer the page's paths with a 404), built from:
// requireWebUser and currentWebSession (web-session.ts), requireCsrf and csrfToken (csrf.ts),
// AppFrame, CsrfField, Field and FormErrors (the .tsx parts), readForm (form-body.ts).
import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { createRouter } from '../../http/router.ts'
import { accountRoutes } from './account-routes.tsx'
import { googleWebRoutes } from './google-routes.tsx'
import { handleRoutes } from './handles-routes.tsx'
import { historyRoutes } from './history-routes.tsx'
import { landingRoutes } from './landing-routes.tsx'
import { notFoundRoutes } from './not-found-routes.tsx'
import { appPageHeaders, limitsAsPages, renderPageError } from './page-answers.tsx'
import { passwordRoutes } from './password-routes.tsx'
import { settingsRoutes } from './settings-routes.tsx'
import { signinRoutes } from './signin-routes.tsx'
import { signupRoutes } from './signup-routes.tsx'
import { communityRoutes } from './communities-routes.tsx'
import { subscriptionRoutes } from './subscriptions-routes.tsx'
import { unlinkRoutes } from './unlink-routes.tsx'

/** /app without its slash is the home page's other spelling: one address, so one redirect. */
const homeWithSlash: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.path !== '/app') return next()
  return c.redirect(`/app/${new URL(c.req.url).search}`, 308)
}

export const webAppRoutes = createRouter()

webAppRoutes.use(homeWithSlash, appPageHeaders, limitsAsPages)
webAppRoutes.onError(renderPageError)
webAppRoutes.route('/', landingRoutes)
webAppRoutes.route('/', signinRoutes)
webAppRoutes.route('/', signupRoutes)
webAppRoutes.route('/', passwordRoutes)
webAppRoutes.route('/', googleWebRoutes)
webAppRoutes.route('/', historyRoutes)
webAppRoutes.route('/', subscriptionRoutes)
webAppRoutes.route('/', communityRoutes)
webAppRoutes.route('/', handleRoutes)
webAppRoutes.route('/', accountRoutes)
// The notice's removal links: no sign-in, so before anything that would ask for one.
webAppRoutes.route('/', unlinkRoutes)
webAppRoutes.route('/', settingsRoutes)
// Keep last: every /app address the routers above did not answer gets the 404 page.
webAppRoutes.route('/', notFoundRoutes)

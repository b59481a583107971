// GET and POST /app/signin (a password sign-in that opens a web session) and POST /app/signout.
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { AppEnv } from '../../app-env.ts'
import { signIn } from '../../auth/accounts.ts'
import { authConfig } from '../../auth/config.ts'
import { googleConfig } from '../../auth/google-config.ts'
import { createDb } from '../../db/client.ts'
import { failureBudget, FAILURE_BUDGETS } from '../../http/failure-budget.ts'
import { rateLimit, RULES } from '../../http/rate-limit.ts'
import { createRouter } from '../../http/router.ts'
import { LABELS, SigninForm } from './auth-forms.ts'
import { csrfPasses, csrfToken, fromOurPages, requireCsrf } from './csrf.ts'
import { formEmail, readForm } from './form-body.ts'
import type { FormPageProps } from './form-page.ts'
import { wordsFor } from './lookup.ts'
import { safeNext } from './next-path.ts'
import { csrfRefused } from './page-answers.tsx'
import { refusal } from './refusal.ts'
import { SigninPage } from './signin-page.tsx'
import { beginWebSession, endBrowserSession, webSession } from './web-session.ts'

/** What a link to the sign-in page may ask it to say; anything else says nothing. */
const NOTICES: Record<string, string> = {
  'signed-out': 'You are signed out.',
  'password-reset': 'Your password was changed and every session ended. Sign in with the new one.',
  'signed-out-everywhere':
    'Every session ended and every destination was unlinked. Sign in to link again what you use.',
}

export async function signinPage(
  c: Context<AppEnv>,
  props: Omit<FormPageProps, 'csrf'> & { next: string },
  status: ContentfulStatusCode = 200,
) {
  const google = googleConfig(c.env) !== undefined
  return c.html(<SigninPage {...props} csrf={await csrfToken(c)} google={google} />, status)
}

export const signinRoutes = createRouter()

signinRoutes
  .get('/signin', async (c) => {
    const next = safeNext(c.req.query('next'))
    // Already signed in: straight on to where the link was going.
    if (await webSession(c)) return c.redirect(next, 303)
    return signinPage(c, { next, notice: wordsFor(NOTICES, c.req.query('notice')) })
  })
  .post(
    '/signin',
    requireCsrf,
    rateLimit(RULES.signin),
    failureBudget(FAILURE_BUDGETS.signin, formEmail),
    async (c) => {
      const next = safeNext(c.req.query('next'))
      const form = await readForm(c, SigninForm, LABELS.signin)
      if (!form.ok) return signinPage(c, { ...form, next }, 400)
      const now = Date.now()
      try {
        const signedIn = await signIn(createDb(c.env.DB), authConfig(c.env), form.data, now, 'web')
        await beginWebSession(c, signedIn, now)
        return c.redirect(next, 303)
      } catch (error) {
        refusal(error, [401])
        const errors = { fields: {}, form: ['The email or password is not right.'] }
        return signinPage(c, { values: form.values, errors, next }, 401)
      }
    },
  )
  .post('/signout', async (c) => {
    // Another site may not sign anyone out either (a SameSite=Lax cookie is not sent with its
    // post, so it would look signed out already). From our pages without a session (it ended
    // elsewhere) there is only a cookie to clear: a stale page's button must not be refused.
    if (!fromOurPages(c)) return csrfRefused(c)
    if ((await webSession(c)) && !(await csrfPasses(c))) return csrfRefused(c)
    await endBrowserSession(c, Date.now())
    return c.redirect('/app/signin?notice=signed-out', 303)
  })

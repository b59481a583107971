// GET and POST /app/forgot (a reset code mailed after the answer) and /app/reset (the code and a
// new password, which end every session of the account, this browser's included).
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { AppEnv } from '../../app-env.ts'
import { destinationRemovals } from '../../account/unlink-link.ts'
import { forgotPassword, resetPassword } from '../../auth/accounts.ts'
import { EMAIL_DISABLED, mailCodeIfIssued } from '../../auth/code-mail.ts'
import { authConfig } from '../../auth/config.ts'
import { passwordChangedAfterAnswer } from '../../auth/security-notices.ts'
import { createDb, type Db } from '../../db/client.ts'
import { failureBudget, FAILURE_BUDGETS } from '../../http/failure-budget.ts'
import { rateLimit, RULES } from '../../http/rate-limit.ts'
import { createRouter } from '../../http/router.ts'
import { ForgotForm, LABELS, ResetForm } from './auth-forms.ts'
import { clearSessionCookie } from './cookies.ts'
import { csrfToken, requireCsrf } from './csrf.ts'
import { formEmail, readForm } from './form-body.ts'
import type { FormPageProps } from './form-page.ts'
import { ForgotPage } from './forgot-page.tsx'
import { refusal } from './refusal.ts'
import { ResetPage } from './reset-page.tsx'
import { webSession } from './web-session.ts'

type PageProps = Omit<FormPageProps, 'csrf' | 'session'>

async function forgotPage(
  c: Context<AppEnv>,
  props: PageProps,
  status: ContentfulStatusCode = 200,
) {
  const session = await webSession(c)
  return c.html(<ForgotPage {...props} session={session} csrf={await csrfToken(c)} />, status)
}

async function resetPage(c: Context<AppEnv>, props: PageProps, status: ContentfulStatusCode = 200) {
  const session = await webSession(c)
  return c.html(<ResetPage {...props} session={session} csrf={await csrfToken(c)} />, status)
}

export const passwordRoutes = createRouter()

passwordRoutes
  .get('/forgot', (c) => forgotPage(c, {}))
  .post('/forgot', requireCsrf, rateLimit(RULES.codeSend, formEmail), async (c) => {
    const form = await readForm(c, ForgotForm, LABELS.forgot)
    if (!form.ok) return forgotPage(c, form, 400)
    const issue = (db: Db, email: string) =>
      forgotPassword(db, authConfig(c.env), email, Date.now())
    try {
      await mailCodeIfIssued(c, form.data.email, 'reset_password', issue)
    } catch (error) {
      refusal(error, [503])
      const errors = { fields: {}, form: [EMAIL_DISABLED] }
      return forgotPage(c, { values: form.values, errors }, 503)
    }
    // The next step's page at once, with the address filled in (kept out of any URL). The same
    // words whether or not the account exists, as the API's answer.
    const notice = 'If an account exists for that email, we sent a code to it.'
    return resetPage(c, { values: { email: form.data.email }, notice })
  })
  .get('/reset', (c) => resetPage(c, {}))
  .post(
    '/reset',
    requireCsrf,
    rateLimit(RULES.codeCheck),
    failureBudget(FAILURE_BUDGETS.codeCheck, formEmail),
    async (c) => {
      const form = await readForm(c, ResetForm, LABELS.reset)
      const values = { email: form.values.email ?? '', code: form.values.code ?? '' }
      if (!form.ok) return resetPage(c, { values, errors: form.errors }, 400)
      const now = Date.now()
      let owner
      try {
        owner = await resetPassword(createDb(c.env.DB), authConfig(c.env), form.data, now)
      } catch (error) {
        refusal(error, [400])
        const code = 'This code is wrong, used or expired. Check the latest email, or ask again.'
        return resetPage(c, { values, errors: { fields: { code }, form: [] } }, 400)
      }
      await passwordChangedAfterAnswer(c, owner, destinationRemovals, now)
      // The reset ended every session of the account; this browser's cookie goes too.
      clearSessionCookie(c)
      return c.redirect('/app/signin?notice=password-reset', 303)
    },
  )

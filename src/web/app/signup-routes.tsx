// GET and POST /app/signup (an account and its web session, the code mailed), /app/verify with
// its second button, POST /app/verify/resend, and /app/verify/password, where a bare proof's
// prover chooses the password the proof took away.
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { AppEnv } from '../../app-env.ts'
import {
  chooseFirstPassword,
  EMAIL_TAKEN,
  resendVerification,
  signUp,
  verifyEmail,
} from '../../auth/accounts.ts'
import { EMAIL_DISABLED, mailCodeIfIssued } from '../../auth/code-mail.ts'
import { authConfig } from '../../auth/config.ts'
import { sendCodeEmail } from '../../auth/emails.ts'
import { googleConfig } from '../../auth/google-config.ts'
import { createDb, type Db } from '../../db/client.ts'
import { failureBudget, FAILURE_BUDGETS } from '../../http/failure-budget.ts'
import { rateLimit, RULES } from '../../http/rate-limit.ts'
import { createRouter } from '../../http/router.ts'
import { isPasswordUnset } from '../../users/credentials.ts'
import { ChoosePasswordForm, LABELS, ResendForm, VerifyForm } from './auth-forms.ts'
import { ChoosePasswordPage } from './choose-password-page.tsx'
import { csrfToken, requireCsrf } from './csrf.ts'
import { formEmail, readForm } from './form-body.ts'
import type { FormPageProps } from './form-page.ts'
import { wordsFor } from './lookup.ts'
import { APP_HOME } from './next-path.ts'
import { refusal } from './refusal.ts'
import { SignupPage } from './signup-page.tsx'
import { signupTimeZone, WebSignupForm } from './signup-time-zone.ts'
import { VerifyPage } from './verify-page.tsx'
import { beginWebSession, currentWebSession, requireWebUser, webSession } from './web-session.ts'

const NOTICES: Record<string, string> = {
  sent: 'We emailed you a 6-digit code.',
  'not-sent': 'Your account is ready, but the code email could not be sent. Send a new code below.',
}

async function signupPage(
  c: Context<AppEnv>,
  props: Omit<FormPageProps, 'csrf'>,
  status: ContentfulStatusCode = 200,
) {
  const google = googleConfig(c.env) !== undefined
  return c.html(<SignupPage {...props} csrf={await csrfToken(c)} google={google} />, status)
}

const CHOOSE_PASSWORD = '/app/verify/password'

async function choosePasswordPage(
  c: Context<AppEnv>,
  props: Omit<FormPageProps, 'csrf' | 'session'>,
  status: ContentfulStatusCode = 200,
) {
  const session = currentWebSession(c)
  return c.html(
    <ChoosePasswordPage {...props} session={session} csrf={await csrfToken(c)} />,
    status,
  )
}

async function verifyPage(
  c: Context<AppEnv>,
  props: Omit<FormPageProps, 'csrf' | 'session'>,
  status: ContentfulStatusCode = 200,
) {
  const session = await webSession(c)
  return c.html(<VerifyPage {...props} session={session} csrf={await csrfToken(c)} />, status)
}

export const signupRoutes = createRouter()

signupRoutes
  .get('/signup', async (c) => {
    if (await webSession(c)) return c.redirect(APP_HOME, 303)
    return signupPage(c, {})
  })
  .post('/signup', requireCsrf, rateLimit(RULES.signup), async (c) => {
    const form = await readForm(c, WebSignupForm, LABELS.signup)
    if (!form.ok) return signupPage(c, form, 400)
    const { timeZone, ...account } = form.data
    const now = Date.now()
    let result: Awaited<ReturnType<typeof signUp>>
    try {
      const input = { ...account, timezone: signupTimeZone(timeZone) }
      result = await signUp(createDb(c.env.DB), authConfig(c.env), input, now, 'web')
    } catch (error) {
      refusal(error, [409])
      const errors = {
        fields: { email: `${EMAIL_TAKEN}. Sign in, or reset its password.` },
        form: [],
      }
      return signupPage(c, { values: form.values, errors }, 409)
    }
    const { delivery } = await sendCodeEmail(
      c.env,
      result.user,
      'verify_email',
      result.code,
      result.codeExpiresAt,
    )
    await beginWebSession(c, result, now)
    return c.redirect(`/app/verify?code=${delivery.sent ? 'sent' : 'not-sent'}`, 303)
  })
  .get('/verify', async (c) => {
    const session = await webSession(c)
    if (session?.user.emailVerifiedAt != null) return c.redirect(APP_HOME, 303)
    return verifyPage(c, { notice: wordsFor(NOTICES, c.req.query('code')) })
  })
  .post(
    '/verify',
    requireCsrf,
    rateLimit(RULES.codeCheck),
    failureBudget(FAILURE_BUDGETS.codeCheck, formEmail),
    async (c) => {
      const form = await readForm(c, VerifyForm, LABELS.verify)
      if (!form.ok) return verifyPage(c, form, 400)
      const now = Date.now()
      // The browser's own session of the account makes it the sign-up's proof (see verifyEmail).
      const session = await webSession(c)
      const proving = session && { userId: session.user.id, sessionId: session.id }
      try {
        const db = createDb(c.env.DB)
        const signedIn = await verifyEmail(db, authConfig(c.env), form.data, now, 'web', proving)
        await beginWebSession(c, signedIn, now)
        if (signedIn.passwordUnset) return c.redirect(CHOOSE_PASSWORD, 303)
        return c.redirect('/app/?notice=verified', 303)
      } catch (error) {
        refusal(error, [400])
        const code =
          'This code is wrong, used or expired. Check the latest email, or send a new code.'
        return verifyPage(c, { values: form.values, errors: { fields: { code }, form: [] } }, 400)
      }
    },
  )
  .get('/verify/password', requireWebUser, async (c) => {
    if (!isPasswordUnset(currentWebSession(c).user)) return c.redirect(APP_HOME, 303)
    return choosePasswordPage(c, {})
  })
  .post('/verify/password', requireCsrf, requireWebUser, async (c) => {
    const form = await readForm(c, ChoosePasswordForm, LABELS.choosePassword)
    if (!form.ok) return choosePasswordPage(c, form, 400)
    const session = currentWebSession(c)
    const proving = { userId: session.user.id, sessionId: session.id }
    try {
      const db = createDb(c.env.DB)
      await chooseFirstPassword(db, authConfig(c.env), proving, form.data.newPassword, Date.now())
    } catch (error) {
      refusal(error, [400])
      return c.redirect(APP_HOME, 303)
    }
    return c.redirect('/app/?notice=password-set', 303)
  })
  .post('/verify/resend', requireCsrf, rateLimit(RULES.codeSend, formEmail), async (c) => {
    const form = await readForm(c, ResendForm, LABELS.verify)
    if (!form.ok) return verifyPage(c, form, 400)
    const values = { email: form.values.email ?? '' }
    const issue = (db: Db, email: string) =>
      resendVerification(db, authConfig(c.env), email, Date.now())
    try {
      await mailCodeIfIssued(c, form.data.email, 'verify_email', issue)
    } catch (error) {
      refusal(error, [503])
      return verifyPage(c, { values, errors: { fields: {}, form: [EMAIL_DISABLED] } }, 503)
    }
    // The same words whether or not such an account exists, as the API's answer.
    const notice = 'If an unverified account exists for that email, a new code has been sent.'
    return verifyPage(c, { values, notice })
  })

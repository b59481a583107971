// /app/account: deactivate, reactivate and delete the account (the functions and limits of the
// API's DELETE /users/profile, PUT /users/activate and DELETE /user/delete-account), the signed-out
// page that follows, recovery within 30 days (POST /auth/recover-account's), and signing out
// everywhere with every destination unlinked.
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { AppEnv } from '../../app-env.ts'
import { linkedDestinations, signOutAndDetachEverything } from '../../account/destinations.ts'
import { recoverAccount, softDeleteAccount } from '../../account/recovery.ts'
import { authConfig } from '../../auth/config.ts'
import { createDb } from '../../db/client.ts'
import { failureBudget, FAILURE_BUDGETS } from '../../http/failure-budget.ts'
import { rateLimit, RULES } from '../../http/rate-limit.ts'
import { createRouter } from '../../http/router.ts'
import { setActive } from '../../users/queries.ts'
import { AccountClosedPage, CLOSED_REASONS, type ClosedReason } from './account-closed-page.tsx'
import {
  ActivateForm,
  DeactivateForm,
  DeleteForm,
  EverywhereForm,
  LABELS,
  RecoverForm,
} from './account-forms.ts'
import { AccountPage } from './account-page.tsx'
import { RecoverPage } from './account-recover-page.tsx'
import { clearSessionCookie } from './cookies.ts'
import { csrfToken, requireCsrf } from './csrf.ts'
import { formEmail, readForm } from './form-body.ts'
import type { FormPageProps } from './form-page.ts'
import { wordsFor } from './lookup.ts'
import { notFoundPage } from './not-found-page.tsx'
import { refusal } from './refusal.ts'
import {
  beginWebSession,
  currentWebSession,
  endBrowserSession,
  requireWebUser,
  webSession,
} from './web-session.ts'
import { noticeAfterAnswer } from '../../auth/security-notices.ts'

const NOTICES: Record<string, string> = {
  reactivated: 'Your account is active again: alerts are sent as your settings say.',
  recovered: 'Your account is restored and you are signed in.',
}

type PageProps = Omit<FormPageProps, 'csrf' | 'session'>

async function accountPage(
  c: Context<AppEnv>,
  props: PageProps,
  status: ContentfulStatusCode = 200,
) {
  const session = currentWebSession(c)
  const linked = (await linkedDestinations(createDb(c.env.DB), session.user.id)) ?? []
  const page = (
    <AccountPage {...props} session={session} linked={linked} csrf={await csrfToken(c)} />
  )
  return c.html(page, status)
}

async function recoverPage(
  c: Context<AppEnv>,
  props: PageProps,
  status: ContentfulStatusCode = 200,
) {
  const session = await webSession(c)
  return c.html(<RecoverPage {...props} session={session} csrf={await csrfToken(c)} />, status)
}

const closed = (c: Context<AppEnv>, reason: ClosedReason) =>
  c.redirect(`/app/account/closed?reason=${reason}`, 303)

export const accountRoutes = createRouter()

accountRoutes
  .get('/account', requireWebUser, (c) =>
    accountPage(c, { notice: wordsFor(NOTICES, c.req.query('notice')) }),
  )
  .post(
    '/account/deactivate',
    requireCsrf,
    requireWebUser,
    rateLimit(RULES.deactivate),
    async (c) => {
      const form = await readForm(c, DeactivateForm, LABELS.deactivate)
      if (!form.ok) return accountPage(c, form, 400)
      const now = Date.now()
      await setActive(createDb(c.env.DB), currentWebSession(c).user.id, false, now)
      // The account stays and so do its other sessions (as with the API); this browser is
      // signed out, so whoever uses it next does not find the account open.
      await endBrowserSession(c, now)
      return closed(c, 'deactivated')
    },
  )
  .post('/account/activate', requireCsrf, requireWebUser, rateLimit(RULES.activate), async (c) => {
    const form = await readForm(c, ActivateForm, LABELS.activate)
    if (!form.ok) return accountPage(c, form, 400)
    await setActive(createDb(c.env.DB), currentWebSession(c).user.id, true, Date.now())
    return c.redirect('/app/account?notice=reactivated', 303)
  })
  .post('/account/sign-out-everywhere', requireCsrf, requireWebUser, async (c) => {
    const form = await readForm(c, EverywhereForm, LABELS.everywhere)
    if (!form.ok) return accountPage(c, form, 400)
    await signOutAndDetachEverything(createDb(c.env.DB), currentWebSession(c).user.id, Date.now())
    // This browser's session ended with the others; its cookie goes too.
    clearSessionCookie(c)
    return c.redirect('/app/signin?notice=signed-out-everywhere', 303)
  })
  .post(
    '/account/delete',
    requireCsrf,
    requireWebUser,
    rateLimit(RULES.deleteAccount),
    async (c) => {
      const form = await readForm(c, DeleteForm, LABELS.delete)
      if (!form.ok) return accountPage(c, { values: form.values, errors: form.errors }, 400)
      const { user } = currentWebSession(c)
      if (form.data.email !== user.email.toLowerCase()) {
        const email = 'This is not the email address of this account.'
        return accountPage(c, { values: form.values, errors: { fields: { email }, form: [] } }, 400)
      }
      // Marks the account deleted and ends every session of it, this browser's included.
      const now = Date.now()
      const deleted = await softDeleteAccount(createDb(c.env.DB), user.id, now)
      if (deleted)
        await noticeAfterAnswer(
          c,
          deleted,
          { kind: 'account-deleted', recoverableUntil: deleted.recoverableUntil },
          now,
        )
      clearSessionCookie(c)
      return closed(c, 'deleted')
    },
  )
  .get('/account/closed', async (c) => {
    const reason = c.req.query('reason')
    if (!CLOSED_REASONS.includes(reason as ClosedReason)) {
      return notFoundPage(c, 'There is no such page about a closed account.')
    }
    const page = (
      <AccountClosedPage
        reason={reason as ClosedReason}
        session={await webSession(c)}
        csrf={await csrfToken(c)}
      />
    )
    return c.html(page)
  })
  .get('/account/recover', (c) => recoverPage(c, {}))
  .post(
    '/account/recover',
    requireCsrf,
    // Sign-in's counters, as the API's recovery: both guess the same password.
    rateLimit(RULES.signin),
    failureBudget(FAILURE_BUDGETS.signin, formEmail),
    async (c) => {
      const form = await readForm(c, RecoverForm, LABELS.recover)
      const values = { email: form.values.email ?? '' }
      if (!form.ok) return recoverPage(c, { values, errors: form.errors }, 400)
      const now = Date.now()
      try {
        const signedIn = await recoverAccount(
          createDb(c.env.DB),
          authConfig(c.env),
          form.data,
          now,
          'web',
        )
        await beginWebSession(c, signedIn, now)
        return c.redirect('/app/account?notice=recovered', 303)
      } catch (error) {
        const status = refusal(error, [401, 404, 409])
        const words: Record<typeof status, string> = {
          401: 'The email or password is not right.',
          404: 'The 30 days are over: this account can no longer be recovered.',
          409: 'This account is not deleted: sign in instead.',
        }
        return recoverPage(c, { values, errors: { fields: {}, form: [words[status]] } }, status)
      }
    },
  )

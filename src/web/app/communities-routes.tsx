// /app/communities: the account's claimed communities, a one-time claim code made on request, and
// the change or release of one (its owner only; another id is the not-found page).
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { AppEnv } from '../../app-env.ts'
import { discordApplication } from '../../channels/discord/application.ts'
import { issueClaimCode, UNVERIFIED_CANNOT_CLAIM } from '../../communities/claims.ts'
import {
  ownedDestinations,
  releaseDestination,
  updateOwnedFilters,
} from '../../communities/owned.ts'
import { createDb } from '../../db/client.ts'
import { settings } from '../../env.ts'
import { createRouter } from '../../http/router.ts'
import { isId } from '../../lib/ids.ts'
import { CommunitiesPage, type CommunitiesPageProps } from './communities-page.tsx'
import { CommunityForm, discordOfForm, filtersOfForm } from './community-form.ts'
import { csrfToken, requireCsrf } from './csrf.ts'
import { readForm } from './form-body.ts'
import { signInPath } from './next-path.ts'
import { notFoundPage } from './not-found-page.tsx'
import { ClearForm } from './subscriptions-forms.ts'
import { currentWebSession, requireWebUser } from './web-session.ts'

const NOT_YOURS = 'Your account has no such community.'

// What the page says after a step it redirected from (?done=...).
const NOTICES: Record<string, string> = { released: 'Released.', saved: 'Saved.' }

async function page(
  c: Context<AppEnv>,
  more: Pick<CommunitiesPageProps, 'code' | 'notice' | 'errors' | 'edit'> = {},
  status: ContentfulStatusCode = 200,
) {
  const session = currentWebSession(c)
  const s = settings(c.env)
  const destinations = await ownedDestinations(createDb(c.env.DB), session.user.id)
  // A refused change of another account's community says no more than a missing one.
  if (more.edit && !destinations.some((d) => d.id === more.edit?.id)) {
    return notFoundPage(c, NOT_YOURS)
  }
  return c.html(
    <CommunitiesPage
      session={session}
      csrf={await csrfToken(c)}
      destinations={destinations}
      telegramAddUrl={
        s.TELEGRAM_BOT_USERNAME
          ? `https://t.me/${s.TELEGRAM_BOT_USERNAME}?startgroup=true`
          : undefined
      }
      discordInstallUrl={discordApplication(c.env)?.installUrl}
      {...more}
    />,
    status,
  )
}

/** A button's post: the CSRF token and nothing else. */
async function buttonErrors(c: Context<AppEnv>) {
  const form = await readForm(c, ClearForm, {})
  return form.ok ? undefined : form.errors.form
}

export const communityRoutes = createRouter()

communityRoutes
  .get('/communities', requireWebUser, (c) =>
    page(c, { notice: NOTICES[c.req.query('done') ?? ''] }),
  )
  .post('/communities/claim-code', requireCsrf, requireWebUser, async (c) => {
    const errors = await buttonErrors(c)
    if (errors) return page(c, { errors }, 400)
    const { user } = currentWebSession(c)
    if (user.emailVerifiedAt == null) return page(c, { errors: [UNVERIFIED_CANNOT_CLAIM] }, 403)
    const issued = await issueClaimCode(createDb(c.env.DB), user.id, Date.now())
    // Deleted since the session was read: the session ends with it.
    if (!issued) return c.redirect(signInPath('/app/communities'), 303)
    c.header('Cache-Control', 'no-store')
    return page(c, { code: { value: issued.code, expiresAt: issued.expiresAt } })
  })
  .post('/communities/:id/release', requireCsrf, requireWebUser, async (c) => {
    const errors = await buttonErrors(c)
    if (errors) return page(c, { errors }, 400)
    const id = c.req.param('id')
    const userId = currentWebSession(c).user.id
    if (!isId(id) || !(await releaseDestination(createDb(c.env.DB), userId, id, Date.now()))) {
      return notFoundPage(c, NOT_YOURS)
    }
    return c.redirect('/app/communities?done=released', 303)
  })
  .post('/communities/:id', requireCsrf, requireWebUser, async (c) => {
    const id = c.req.param('id')
    if (!isId(id)) return notFoundPage(c, NOT_YOURS)
    const form = await readForm(c, CommunityForm, {})
    if (!form.ok) return page(c, { errors: form.errors.form }, 400)
    const checked = filtersOfForm(form.data)
    if (!checked.ok) return page(c, { edit: { id, values: form.data, error: checked.error } }, 400)
    const discord = discordOfForm(form.data)
    if (!discord.ok) return page(c, { edit: { id, values: form.data, error: discord.error } }, 400)
    const userId = currentWebSession(c).user.id
    // Every form has the cleanup and rank-updates boxes: not sent is unticked.
    const filters = { ...checked.filters, cleanup: form.data.cleanup === 'on' }
    const input = {
      userId,
      id,
      filters,
      discord: discord.discord,
      rankUpdates: form.data.rankUpdates === 'on',
    }
    if (!(await updateOwnedFilters(createDb(c.env.DB), input, Date.now()))) {
      return notFoundPage(c, NOT_YOURS)
    }
    return c.redirect('/app/communities?done=saved', 303)
  })

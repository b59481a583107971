// GET and POST /app/account/unlink: the removal links of the password-changed notice. No sign-in:
// the signed token is the authority (the notice's mailbox is the owner's). Mail scanners fetch
// every link, so a GET only shows what would go; the page's button, with its CSRF token, removes.
import type { Context } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { linkedDestinations, removeDestination, removedBy } from '../../account/destinations.ts'
import { readUnlinkToken, UNLINK_PATH, type UnlinkClaim } from '../../account/unlink-link.ts'
import { createDb } from '../../db/client.ts'
import { createRouter } from '../../http/router.ts'
import { clearSessionCookie } from './cookies.ts'
import { csrfToken, requireCsrf } from './csrf.ts'
import { messagePage } from './page-answers.tsx'
import {
  ACCOUNT_GONE,
  EXPIRED_LINK,
  INVALID_LINK,
  removedMessage,
  UnlinkPage,
} from './unlink-page.tsx'
import { webSession } from './web-session.ts'

const claimOf = (c: Context<AppEnv>, now: number) =>
  readUnlinkToken(c.env, c.req.query('token') ?? '', now)

/** The page of a link that cannot be used: 400 as the other signed links' bad-link page. */
const refused = (c: Context<AppEnv>, claim: Extract<UnlinkClaim, { ok: false }>) =>
  messagePage(c, 400, claim.reason === 'expired' ? EXPIRED_LINK : INVALID_LINK)

/** Mounted in the web app, so its paths are /app/account/unlink. */
export const unlinkRoutes = createRouter()

unlinkRoutes
  .get('/account/unlink', async (c) => {
    const claim = await claimOf(c, Date.now())
    if (!claim.ok) return refused(c, claim)
    const linked = await linkedDestinations(createDb(c.env.DB), claim.userId)
    if (!linked) return messagePage(c, 410, ACCOUNT_GONE)
    const shown = removedBy(claim.kind, linked)
    // The form posts back to the address the page was opened at, token included.
    const action = `${UNLINK_PATH}?token=${encodeURIComponent(c.req.query('token') ?? '')}`
    const page = (
      <UnlinkPage
        kind={claim.kind}
        linked={shown}
        action={action}
        session={await webSession(c)}
        csrf={await csrfToken(c)}
      />
    )
    return c.html(page)
  })
  .post('/account/unlink', requireCsrf, async (c) => {
    const now = Date.now()
    const claim = await claimOf(c, now)
    if (!claim.ok) return refused(c, claim)
    // Read before the removal: a browser signed in to this account loses its session with it.
    const browserSession = await webSession(c)
    const removed = await removeDestination(createDb(c.env.DB), claim.userId, claim.kind, now)
    if (!removed) return messagePage(c, 410, ACCOUNT_GONE)
    if (claim.kind === 'all' && browserSession?.user.id === claim.userId) clearSessionCookie(c)
    return messagePage(c, 200, removedMessage(claim.kind, removed))
  })

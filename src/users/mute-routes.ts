// GET and POST /subscriptions/mute: the mute link's confirmation page, and the mute itself.
import { createRoute } from '@hono/zod-openapi'
import { createDb } from '../db/client.ts'
import { createRouter } from '../http/router.ts'
import { muteByLink, muteLinkTarget } from './mute-by-link.ts'
import { MUTE_LINK_PATH, readMuteToken } from './mute-link.ts'
import {
  htmlResponse,
  invalidLinkPage,
  linkPageResponses,
  linkTokenQuery,
  sendPage,
} from './link-page.ts'
import { confirmPage, gonePage, mutedPage } from './mute-page.ts'

// `<user id>.<contest id>.<signature>` (mute-link.ts).
const TokenQuery = linkTokenQuery(
  'The signed token of the link in a reminder email',
  24 + 1 + 24 + 1 + 43,
)

const pages = linkPageResponses('The account or the contest is gone')

// Mail scanners and link previews fetch every link of an email, so a GET only shows the page.
const show = createRoute({
  method: 'get',
  path: '/mute',
  tags: ['Users'],
  summary: 'The confirmation page of a reminder’s mute link; changes nothing',
  request: { query: TokenQuery },
  responses: {
    200: htmlResponse('Names the contest; its button POSTs to the same address'),
    ...pages,
  },
})

const mute = createRoute({
  method: 'post',
  path: '/mute',
  tags: ['Users'],
  summary: 'Mute the contest of a reminder’s mute link for the account it was sent to',
  request: { query: TokenQuery },
  responses: { 200: htmlResponse('Muted'), ...pages },
})

/** Mounted at /subscriptions, so that its /mute is MUTE_LINK_PATH, where the emails point. */
export const muteLinkRoutes = createRouter()
  .openapi(show, async (c) => {
    const { token = '' } = c.req.valid('query')
    const claim = await readMuteToken(c.env, token)
    if (!claim) return sendPage(c, invalidLinkPage())
    const target = await muteLinkTarget(createDb(c.env.DB), claim)
    if (target.kind !== 'ready') return sendPage(c, gonePage(target))
    // The form posts back to the address the page was opened at, token included.
    return sendPage(c, confirmPage(target.contest, `${MUTE_LINK_PATH}?token=${token}`))
  })
  .openapi(mute, async (c) => {
    const claim = await readMuteToken(c.env, c.req.valid('query').token ?? '')
    if (!claim) return sendPage(c, invalidLinkPage())
    const target = await muteByLink(createDb(c.env.DB), claim, Date.now())
    return sendPage(c, target.kind === 'ready' ? mutedPage(target.contest) : gonePage(target))
  })

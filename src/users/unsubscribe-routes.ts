// GET and POST /unsubscribe: the one-click unsubscribe link's confirmation page, and the
// unsubscribe itself (RFC 8058: mail clients POST `List-Unsubscribe=One-Click` to the link).
import { createRoute, z } from '@hono/zod-openapi'
import { createDb } from '../db/client.ts'
import { createRouter } from '../http/router.ts'
import {
  htmlResponse,
  invalidLinkPage,
  linkPageResponses,
  linkTokenQuery,
  sendPage,
} from './link-page.ts'
import { UNSUBSCRIBE_PATH, readUnsubscribeToken } from './unsubscribe-link.ts'
import { accountGonePage, confirmUnsubscribePage, unsubscribedPage } from './unsubscribe-page.ts'
import { unsubscribeEmail, unsubscribeTarget } from './unsubscribe.ts'

// `<user id>.<signature>` (unsubscribe-link.ts).
const TokenQuery = linkTokenQuery(
  'The signed token of the unsubscribe link of an email',
  24 + 1 + 43,
)

// RFC 8058's body; an empty body (a browser's form without the field) is taken too.
const OneClickBody = z
  .strictObject({ 'List-Unsubscribe': z.literal('One-Click').optional() })
  .openapi('OneClickUnsubscribe')

const pages = linkPageResponses('The account is gone')

// Mail scanners and link previews fetch every link of an email, so a GET only shows the page.
const show = createRoute({
  method: 'get',
  path: '/',
  tags: ['Users'],
  summary: 'The confirmation page of an email’s unsubscribe link; changes nothing',
  request: { query: TokenQuery },
  responses: { 200: htmlResponse('Its button POSTs to the same address'), ...pages },
})

const unsubscribe = createRoute({
  method: 'post',
  path: '/',
  tags: ['Users'],
  summary: 'One-click unsubscribe (RFC 8058): no more optional email for the account',
  description:
    'Turns off notification email (reminders, digests, announcements) for the account the ' +
    'signed link names, without a sign-in. Account email (codes, password resets) still goes out.',
  request: {
    query: TokenQuery,
    body: {
      content: { 'application/x-www-form-urlencoded': { schema: OneClickBody } },
      required: false,
    },
  },
  responses: { 200: htmlResponse('Unsubscribed'), ...pages },
})

/** Mounted at UNSUBSCRIBE_PATH, where the emails' links and List-Unsubscribe headers point. */
export const unsubscribeRoutes = createRouter()
  .openapi(show, async (c) => {
    const { token = '' } = c.req.valid('query')
    const userId = await readUnsubscribeToken(c.env, token)
    if (!userId) return sendPage(c, invalidLinkPage())
    if (!(await unsubscribeTarget(createDb(c.env.DB), userId))) {
      return sendPage(c, accountGonePage())
    }
    // The form posts back to the address the page was opened at, token included.
    return sendPage(c, confirmUnsubscribePage(`${UNSUBSCRIBE_PATH}?token=${token}`))
  })
  .openapi(unsubscribe, async (c) => {
    const userId = await readUnsubscribeToken(c.env, c.req.valid('query').token ?? '')
    if (!userId) return sendPage(c, invalidLinkPage())
    const done = await unsubscribeEmail(createDb(c.env.DB), userId, Date.now())
    return sendPage(c, done ? unsubscribedPage() : accountGonePage())
  })

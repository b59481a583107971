// GET and POST /unsubscribe: the one-click unsubscribe link's confirmation page, and the
// unsubscribe itself (RFC 8058: mail clients POST `List-Unsubscribe=One-Click` to the link).
import { createRoute, z } from '@hono/zod-openapi'
import { createDb } from '../db/client.ts'
import { createRouter } from '../http/router.ts'
import { errorResponse } from '../lib/openapi.ts'
import { invalidLinkPage, sendPage } from './link-page.ts'
import { UNSUBSCRIBE_PATH, readUnsubscribeToken } from './unsubscribe-link.ts'
import { accountGonePage, confirmUnsubscribePage, unsubscribedPage } from './unsubscribe-page.ts'
import { unsubscribeEmail, unsubscribeTarget } from './unsubscribe.ts'

// Optional and loose: a missing or malformed token gets the HTML page of a bad link, not the
// API's JSON error; other query parameters (mail trackers add some) are ignored.
const TokenQuery = z.object({
  token: z
    .string()
    .optional()
    .openapi({ description: 'The signed token of the unsubscribe link of an email' }),
})

// RFC 8058's body; an empty body (a browser's form without the field) is taken too.
const OneClickBody = z
  .strictObject({ 'List-Unsubscribe': z.literal('One-Click').optional() })
  .openapi('OneClickUnsubscribe')

const html = (description: string) => ({
  content: { 'text/html': { schema: z.string() } },
  description,
})

const pages = {
  400: html('The link is malformed or its signature does not match'),
  410: html('The account is gone'),
  // The general rate limit answers in the API's JSON shape, before the route is reached.
  429: errorResponse('Too many requests'),
}

// Mail scanners and link previews fetch every link of an email, so a GET only shows the page.
const show = createRoute({
  method: 'get',
  path: '/',
  tags: ['Users'],
  summary: 'The confirmation page of an email’s unsubscribe link; changes nothing',
  request: { query: TokenQuery },
  responses: { 200: html('Its button POSTs to the same address'), ...pages },
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
  responses: { 200: html('Unsubscribed'), ...pages },
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

// GET and POST /notifications/snooze: the signed snooze link of a reminder's email and push
// notification. GET shows a page and changes nothing (mail scanners open every link); POST makes
// the reminder 10 minutes before the start, answering JSON (the service worker, any client) or,
// to a browser's form, the page.
import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { findContest } from '../../contests/queries.ts'
import { createDb } from '../../db/client.ts'
import { createRouter } from '../../http/router.ts'
import { ApiError } from '../../lib/errors.ts'
import { escapeHtml } from '../../lib/html.ts'
import { errorResponse, ErrorSchema, json } from '../../lib/openapi.ts'
import { htmlResponse, page, para, sendPage, type Page } from '../../users/link-page.ts'
import { notifier } from '../context.ts'
import {
  snoozeJson,
  snoozeReminder,
  snoozeWords,
  type SnoozeOutcome,
} from '../scheduling/snooze.ts'
import {
  readSnoozeToken,
  SNOOZE_BUTTON_TEXT,
  SNOOZE_LEAD_MINUTES,
  SNOOZE_LINK_PATH,
  SNOOZE_TOKEN_LENGTH,
  type SnoozeTokenRead,
} from '../snooze-link.ts'

// Loose, so a missing or malformed token gets this route's own answer (the bad link's), and
// parameters a mail tracker adds are ignored; the token's anchored pattern bounds what is read.
const TokenQuery = z.object({
  token: z.string().optional().openapi({
    description: 'The signed token of the snooze link in a reminder email or push notification',
    maxLength: SNOOZE_TOKEN_LENGTH,
  }),
})

export const SnoozedSchema = z
  .object({
    snoozed: z.literal(true),
    created: z.boolean().openapi({ description: 'False when the reminder was already set' }),
    contestId: z.string(),
    remindAt: z.string().openapi({ description: 'When the reminder goes out (ISO 8601)' }),
    message: z.string(),
  })
  .openapi('Snoozed')

const LINK_INVALID = 'The snooze link is not valid: it is incomplete or was changed'
const LINK_EXPIRED = 'The snooze link has expired'

/** An answer as the API's JSON, or as the page a browser's form is given. */
const jsonOrPage = <T>(schema: T, description: string) => ({
  content: { ...json(schema, description).content, ...htmlResponse(description).content },
  description,
})

const refusals = {
  400: jsonOrPage(ErrorSchema, LINK_INVALID),
  404: jsonOrPage(ErrorSchema, 'The account or the contest is gone'),
  409: jsonOrPage(
    ErrorSchema,
    `The contest has started, or starts in less than ${SNOOZE_LEAD_MINUTES} minutes, or no channel can carry the reminder`,
  ),
  410: jsonOrPage(ErrorSchema, LINK_EXPIRED),
  429: errorResponse('Too many requests'),
}

const show = createRoute({
  method: 'get',
  path: '/snooze',
  tags: ['Notifications'],
  summary: 'The page of a reminder’s snooze link; changes nothing',
  request: { query: TokenQuery },
  responses: {
    200: htmlResponse('Names the contest; its button POSTs to the same address'),
    400: htmlResponse(LINK_INVALID),
    404: htmlResponse('The contest is gone'),
    410: htmlResponse(LINK_EXPIRED),
    429: errorResponse('Too many requests'),
  },
})

const snooze = createRoute({
  method: 'post',
  path: '/snooze',
  tags: ['Notifications'],
  summary: `One more reminder of the link’s contest, ${SNOOZE_LEAD_MINUTES} minutes before it starts, once`,
  description:
    'A second press (of this link, the push action or the Telegram button) makes nothing more. ' +
    'Answers the page of the outcome instead of JSON when the request accepts text/html.',
  request: { query: TokenQuery },
  responses: {
    201: jsonOrPage(SnoozedSchema, 'The reminder is made'),
    200: jsonOrPage(SnoozedSchema, 'The reminder was already set'),
    ...refusals,
  },
})

/** A refused link, as the API's error or as a page. */
function linkRefusal(read: Exclude<SnoozeTokenRead, { kind: 'valid' }>) {
  return read.kind === 'expired'
    ? { status: 410 as const, title: 'This link has expired', message: LINK_EXPIRED }
    : { status: 400 as const, title: 'This link is not valid', message: LINK_INVALID }
}

/** The HTTP status of an outcome that made nothing. */
const refusalStatus = (kind: Exclude<SnoozeOutcome['kind'], 'snoozed'>) =>
  kind === 'contest-gone' || kind === 'account-gone' ? 404 : 409

const pageTitles: Record<SnoozeOutcome['kind'], string> = {
  snoozed: 'Reminder set',
  started: 'Too late for this reminder',
  'too-close': 'Too late for this reminder',
  'contest-gone': 'This contest is no longer listed',
  'account-gone': 'This link no longer works',
  unreachable: 'No channel can carry the reminder',
}

function outcomePage(outcome: SnoozeOutcome): Page {
  const status =
    outcome.kind === 'snoozed' ? (outcome.created ? 201 : 200) : refusalStatus(outcome.kind)
  return page(status, pageTitles[outcome.kind], para(escapeHtml(snoozeWords(outcome))))
}

// A browser's form asks for a page; the service worker and API clients for JSON.
const wantsPage = (c: Context<AppEnv>) => (c.req.header('Accept') ?? '').includes('text/html')

export const snoozeRoutes = createRouter()
  .openapi(show, async (c) => {
    const { token = '' } = c.req.valid('query')
    const read = await readSnoozeToken(c.env, token, Date.now())
    if (read.kind !== 'valid') {
      const refused = linkRefusal(read)
      return sendPage(c, page(refused.status, refused.title, para(`${refused.message}.`)))
    }
    const contest = await findContest(createDb(c.env.DB), read.claim.contestId)
    if (!contest) return sendPage(c, outcomePage({ kind: 'contest-gone' }))
    const action = `${SNOOZE_LINK_PATH}?token=${token}`
    return sendPage(
      c,
      page(
        200,
        `${SNOOZE_BUTTON_TEXT}?`,
        para(
          `One more reminder of <strong>${escapeHtml(contest.name)}</strong>, ` +
            `${SNOOZE_LEAD_MINUTES} minutes before it starts ` +
            `(${escapeHtml(new Date(contest.startTime).toUTCString())}).`,
        ) +
          `<form method="post" action="${escapeHtml(action)}">` +
          `<button type="submit">${escapeHtml(SNOOZE_BUTTON_TEXT)}</button></form>`,
      ),
    )
  })
  .openapi(snooze, async (c) => {
    const now = Date.now()
    const read = await readSnoozeToken(c.env, c.req.valid('query').token ?? '', now)
    if (read.kind !== 'valid') {
      const refused = linkRefusal(read)
      if (wantsPage(c)) {
        return sendPage(c, page(refused.status, refused.title, para(`${refused.message}.`)))
      }
      throw new ApiError(refused.status, refused.message)
    }
    const outcome = await snoozeReminder(notifier(c.env), read.claim, now)
    if (wantsPage(c)) return sendPage(c, outcomePage(outcome))
    if (outcome.kind !== 'snoozed') {
      throw new ApiError(refusalStatus(outcome.kind), snoozeWords(outcome))
    }
    return c.json(snoozeJson(outcome), outcome.created ? 201 : 200)
  })

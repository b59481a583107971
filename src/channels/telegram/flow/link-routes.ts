// POST /users/telegram/link and DELETE /users/telegram: the signed-in user gets a one-time deep
// link to the bot, or unlinks their chat.
import { createDb } from '../../../db/client.ts'
import { settings } from '../../../env.ts'
import { currentUser } from '../../../http/auth.ts'
import { createRouter, signedInRoute } from '../../../http/router.ts'
import { ApiError, notFound } from '../../../lib/errors.ts'
import { errorResponse, json } from '../../../lib/openapi.ts'
import { unlinkUser } from '../../../users/telegram-chat.ts'
import { issueTelegramLink } from '../../../users/telegram-links.ts'
import { TelegramLinkSchema } from './schemas.ts'
import { telegramProvider } from '../bot-api.ts'

const tags = ['Users']

const link = signedInRoute({
  method: 'post',
  path: '/telegram/link',
  tags,
  summary: 'A one-time link to the Telegram bot (15 minutes); pressing Start links the chat',
  responses: {
    201: json(TelegramLinkSchema, 'The deep link, shown once; only its token’s hash is stored'),
    404: errorResponse('User not found'),
    503: errorResponse('The Telegram bot is not configured'),
  },
})

const unlink = signedInRoute({
  method: 'delete',
  path: '/telegram',
  tags,
  summary: 'Unlink the Telegram chat and turn Telegram off (204 also when none was linked)',
  responses: { 204: { description: 'No Telegram chat any more' } },
})

// Mounted under /users ahead of the users router, whose admin DELETE /{id} would take `telegram`.
export const telegramUserRoutes = createRouter()
  .openapi(link, async (c) => {
    const s = settings(c.env)
    // A bot to link to, and a way to write to it: the Bot API, or the local outbox of a local run.
    if (!s.TELEGRAM_BOT_USERNAME || telegramProvider(c.env) === 'none') {
      throw new ApiError(503, 'Telegram is not available: the bot is not configured')
    }
    const db = createDb(c.env.DB)
    const answer = await issueTelegramLink(
      db,
      currentUser(c).sub,
      s.TELEGRAM_BOT_USERNAME,
      Date.now(),
    )
    if (!answer) throw notFound('User not found')
    // The answer carries a secret: no cache may keep it.
    c.header('Cache-Control', 'no-store')
    return c.json(answer, 201)
  })
  .openapi(unlink, async (c) => {
    // Idempotent: a retried unlink, after a lost answer, must not read as a failure.
    await unlinkUser(createDb(c.env.DB), currentUser(c).sub, Date.now())
    return c.body(null, 204)
  })

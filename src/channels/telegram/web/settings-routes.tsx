// POST /app/settings/telegram/link and /telegram/unlink: a one-time deep link to the bot (shown on
// the page once, never in a URL) and unlinking, through the functions of POST /users/telegram/link
// and DELETE /users/telegram.
import { telegramProvider } from '../bot-api.ts'
import { createDb } from '../../../db/client.ts'
import { settings } from '../../../env.ts'
import { createRouter } from '../../../http/router.ts'
import { notFound } from '../../../lib/errors.ts'
import { unlinkUser } from '../../../users/telegram-chat.ts'
import { issueTelegramLink } from '../../../users/telegram-links.ts'
import { requireCsrf } from '../../../web/app/csrf.ts'
import { backTo, settingsAnswer } from '../../../web/app/settings-answer.tsx'
import { buttonFormErrors, formError, submittedFields } from '../../../web/app/settings-form.ts'
import { TELEGRAM_FORMS } from './settings-section.tsx'
import { currentWebSession, requireWebUser } from '../../../web/app/web-session.ts'

export const settingsTelegramRoutes = createRouter()

settingsTelegramRoutes
  .post('/settings/telegram/link', requireCsrf, requireWebUser, async (c) => {
    const form = TELEGRAM_FORMS.link
    const errors = buttonFormErrors(await submittedFields(c))
    if (errors) return settingsAnswer(c, { edit: { form, values: {}, errors } }, 400)
    const s = settings(c.env)
    if (!s.TELEGRAM_BOT_USERNAME || telegramProvider(c.env) === 'none') {
      const unavailable = formError('Telegram is not available: the bot is not configured')
      return settingsAnswer(c, { edit: { form, values: {}, errors: unavailable } }, 503)
    }
    const db = createDb(c.env.DB)
    const userId = currentWebSession(c).user.id
    const link = await issueTelegramLink(db, userId, s.TELEGRAM_BOT_USERNAME, Date.now())
    if (!link) throw notFound('User not found')
    // The page itself carries the link: a redirect would have to put the token in a URL.
    const notice = { section: 'telegram', text: 'Your link to the bot is ready below.' }
    return settingsAnswer(c, { secrets: { telegram: link }, notice })
  })
  .post('/settings/telegram/unlink', requireCsrf, requireWebUser, async (c) => {
    const errors = buttonFormErrors(await submittedFields(c))
    if (errors) {
      return settingsAnswer(c, { edit: { form: TELEGRAM_FORMS.unlink, values: {}, errors } }, 400)
    }
    // Idempotent as DELETE /users/telegram: nothing linked is no failure.
    await unlinkUser(createDb(c.env.DB), currentWebSession(c).user.id, Date.now())
    return backTo(c, 'telegram-unlinked', 'telegram')
  })

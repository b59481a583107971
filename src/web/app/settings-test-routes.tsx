// POST /app/settings/test/<channel>: the Channels section's test send, the function and limit of
// POST /users/test-notification (3 an hour per channel, on the same counter), answered with the
// settings page and the provider's words in the section's notice; a refusal (nowhere to send,
// the channel off here) is the page with its reason and the API's status.
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { ApiError } from '../../lib/errors.ts'
import { isChannel } from '../../channels/registry.ts'
import { rateLimit, RULES } from '../../http/rate-limit.ts'
import { createRouter } from '../../http/router.ts'
import { notifier } from '../../notifications/context.ts'
import { sendTestNotification } from '../../notifications/delivery/test-send.ts'
import { requireCsrf } from './csrf.ts'
import { settingsAnswer } from './settings-answer.tsx'
import { buttonFormErrors, submittedFields } from './settings-form.ts'
import { currentWebSession, requireWebUser } from './web-session.ts'
import { notFoundPage } from './not-found-page.tsx'

export const settingsTestRoutes = createRouter()

settingsTestRoutes.post(
  '/settings/test/:channel',
  requireCsrf,
  requireWebUser,
  rateLimit(RULES.testNotification),
  async (c) => {
    const channel = c.req.param('channel')
    if (!isChannel(channel)) return notFoundPage(c, 'There is no such channel.')
    const errors = buttonFormErrors(await submittedFields(c))
    if (errors) {
      return settingsAnswer(
        c,
        { notice: { section: 'channels', text: errors.form.join(' ') } },
        400,
      )
    }
    const userId = currentWebSession(c).user.id
    try {
      const answer = await sendTestNotification(notifier(c.env), userId, channel, Date.now())
      const text = `Test result: ${answer.message}.`
      return settingsAnswer(c, { notice: { section: 'channels', text } })
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error
      const text = `Test not sent: ${error.message}`
      const status = error.status as ContentfulStatusCode
      return settingsAnswer(c, { notice: { section: 'channels', text } }, status)
    }
  },
)

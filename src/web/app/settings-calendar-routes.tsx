// POST /app/settings/calendar and /calendar/revoke: make (or remake) the private feed's address,
// shown on the page once, and turn it off, through the functions of POST and DELETE
// /users/calendar.
import { newFeedAddress } from '../../calendar/feed-address.ts'
import { revokeFeed } from '../../calendar/feeds.ts'
import { createDb } from '../../db/client.ts'
import { settings } from '../../env.ts'
import { createRouter } from '../../http/router.ts'
import { notFound } from '../../lib/errors.ts'
import { requireCsrf } from './csrf.ts'
import { backTo, settingsAnswer } from './settings-answer.tsx'
import { CALENDAR_FORMS } from './settings-calendar.tsx'
import { buttonFormErrors, submittedFields } from './settings-form.ts'
import { currentWebSession, requireWebUser } from './web-session.ts'

export const settingsCalendarRoutes = createRouter()

settingsCalendarRoutes
  .post('/settings/calendar', requireCsrf, requireWebUser, async (c) => {
    const errors = buttonFormErrors(await submittedFields(c))
    if (errors) {
      return settingsAnswer(c, { edit: { form: CALENDAR_FORMS.make, values: {}, errors } }, 400)
    }
    const db = createDb(c.env.DB)
    const userId = currentWebSession(c).user.id
    const address = await newFeedAddress(db, userId, settings(c.env).APP_URL, Date.now())
    if (!address) throw notFound('User not found')
    // The page itself carries the address: only its hash is stored, so it is shown now or never.
    const notice = { section: 'calendar', text: 'Your new feed address is below.' }
    return settingsAnswer(c, { secrets: { feed: address }, notice })
  })
  .post('/settings/calendar/revoke', requireCsrf, requireWebUser, async (c) => {
    const errors = buttonFormErrors(await submittedFields(c))
    if (errors) {
      return settingsAnswer(c, { edit: { form: CALENDAR_FORMS.revoke, values: {}, errors } }, 400)
    }
    // Idempotent as DELETE /users/calendar: no feed is no failure.
    await revokeFeed(createDb(c.env.DB), currentWebSession(c).user.id)
    return backTo(c, 'calendar-revoked', 'calendar')
  })

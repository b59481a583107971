// GET /app/settings and POST /app/settings/<form> for each preference form: checked by the form's
// schema and the API's, saved by updateProfile (what PUT /users/profile calls, with its limit),
// then 303 back to the section with a notice; bad input is the page again, 400, with the messages.
// The phone, Telegram, calendar and push routes are mounted here from their own files.
import type { Context, Handler } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { createDb } from '../../db/client.ts'
import type { Env } from '../../env.ts'
import { rateLimit, RULES } from '../../http/rate-limit.ts'
import { createRouter } from '../../http/router.ts'
import { notFound } from '../../lib/errors.ts'
import { updateProfile } from '../../users/queries.ts'
import type { ProfileUpdate } from '../../users/schemas.ts'
import type { FormErrors } from './form-body.ts'
import { requireCsrf } from './csrf.ts'
import { alertsForm } from './settings-alerts.tsx'
import { backTo, settingsAnswer } from './settings-answer.tsx'
import { settingsCalendarRoutes } from './settings-calendar-routes.tsx'
import { channelsForm } from './settings-channels.tsx'
import { contestsForm } from './settings-contests.tsx'
import { filtersForm } from './settings-filters.tsx'
import { buttonFormErrors, checkForm, submittedFields, type SettingsForm } from './settings-form.ts'
import { leadTimesForm } from './settings-lead-times.tsx'
import { settingsNotice } from './settings-notices.ts'
import { phoneForm } from './settings-phone.tsx'
import { settingsPhoneRoutes } from './settings-phone-routes.tsx'
import { settingsPushRoutes } from './settings-push-routes.ts'
import { quietHoursForm } from './settings-quiet-hours.tsx'
import { settingsTestRoutes } from './settings-test-routes.tsx'
import { settingsTelegramRoutes } from '../../channels/telegram/web/settings-routes.tsx'
import { WEBHOOK_SETTINGS } from './settings-webhook.tsx'
import { currentWebSession, requireWebUser } from './web-session.ts'

/** A refusal a form's schemas cannot know (it depends on the settings), as the API makes it. */
type Recheck = (env: Env, update: ProfileUpdate) => FormErrors | undefined

/** The forms that are one profile update each; the form's id is its path and its section. */
const PROFILE_FORMS: [SettingsForm<any>, Recheck?][] = [
  [contestsForm],
  [alertsForm],
  [leadTimesForm],
  [quietHoursForm],
  [filtersForm],
  [channelsForm],
  [phoneForm],
  ...WEBHOOK_SETTINGS.map((w): [SettingsForm<any>, Recheck] => [w.form, w.recheck]),
]

async function saveUpdate(c: Context<AppEnv>, update: ProfileUpdate) {
  const db = createDb(c.env.DB)
  const user = await updateProfile(db, currentWebSession(c).user.id, update, Date.now())
  if (!user) throw notFound('User not found')
}

function saveForm(form: SettingsForm<unknown>, recheck?: Recheck): Handler<AppEnv> {
  return async (c) => {
    const submitted = await submittedFields(c)
    const checked = checkForm(form, submitted)
    if (!checked.ok) {
      const { values, errors } = checked
      return settingsAnswer(c, { edit: { form: form.id, values, errors } }, 400)
    }
    const refused = recheck?.(c.env, checked.update)
    if (refused) {
      return settingsAnswer(
        c,
        { edit: { form: form.id, values: submitted!, errors: refused } },
        400,
      )
    }
    await saveUpdate(c, checked.update)
    return backTo(c, form.id, form.id)
  }
}

export const settingsRoutes = createRouter()

settingsRoutes.get('/settings', requireWebUser, rateLimit(RULES.getProfile), (c) =>
  settingsAnswer(c, { notice: settingsNotice(c.req.query('saved')) }),
)

// A form's address opened as a page (the sign-in's way back after a post that found the session
// gone, a bookmark): the settings page itself.
settingsRoutes.get('/settings/:rest{.+}', requireWebUser, (c) => c.redirect('/app/settings', 303))

// Every POST: the CSRF check first, then the session, then the limit of the API's route.
for (const [form, recheck] of PROFILE_FORMS) {
  settingsRoutes.post(
    `/settings/${form.id}`,
    requireCsrf,
    requireWebUser,
    rateLimit(RULES.updateProfile),
    saveForm(form, recheck),
  )
}

for (const { channel, removeForm, removal } of WEBHOOK_SETTINGS) {
  settingsRoutes.post(
    `/settings/${channel}/remove`,
    requireCsrf,
    requireWebUser,
    rateLimit(RULES.updateProfile),
    async (c) => {
      const errors = buttonFormErrors(await submittedFields(c))
      if (errors) {
        return settingsAnswer(c, { edit: { form: removeForm, values: {}, errors } }, 400)
      }
      // As the API's null: the URL is forgotten and the channel turned off.
      await saveUpdate(c, removal)
      return backTo(c, `${channel}-removed`, channel)
    },
  )
}

settingsRoutes.route('/', settingsPhoneRoutes)
settingsRoutes.route('/', settingsTelegramRoutes)
settingsRoutes.route('/', settingsCalendarRoutes)
settingsRoutes.route('/', settingsPushRoutes)
settingsRoutes.route('/', settingsTestRoutes)

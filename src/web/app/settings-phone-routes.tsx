// POST /app/settings/phone/send-code and /phone/verify: the WhatsApp code of the account's number,
// through the functions POST /users/phone/verification and /verify call, with their limits (per
// user, per number, and the failure budget of wrong codes the API shares).
import { authConfig } from '../../auth/config.ts'
import { refuseNumber } from '../../auth/phone-send-limits.ts'
import { confirmPhoneCode, requestPhoneCode } from '../../auth/phone-verification.ts'
import { createDb } from '../../db/client.ts'
import { FAILURE_BUDGETS, failureBudget, signedInAccount } from '../../http/failure-budget.ts'
import { rateLimit, RULES } from '../../http/rate-limit.ts'
import { createRouter } from '../../http/router.ts'
import { requireCsrf } from './csrf.ts'
import { refusal } from './refusal.ts'
import { backTo, settingsAnswer } from './settings-answer.tsx'
import {
  buttonFormErrors,
  fieldErrors,
  formError,
  submittedFields,
  UNREADABLE,
} from './settings-form.ts'
import { PHONE_FORMS, PhoneCodeForm } from './settings-phone.tsx'
import { currentWebSession, requireWebUser } from './web-session.ts'

const WRONG_CODE =
  'This code is wrong, used or expired. Check the latest message, or send a new code.'

export const settingsPhoneRoutes = createRouter()

settingsPhoneRoutes
  .post(
    '/settings/phone/send-code',
    requireCsrf,
    requireWebUser,
    rateLimit(RULES.phoneCodeSend),
    rateLimit(RULES.phoneCodeSendDaily),
    async (c) => {
      const form = PHONE_FORMS.send
      const errors = buttonFormErrors(await submittedFields(c))
      if (errors) return settingsAnswer(c, { edit: { form, values: {}, errors } }, 400)
      const deps = { env: c.env, db: createDb(c.env.DB), codeKey: await authConfig(c.env).codeKey }
      let result: Awaited<ReturnType<typeof requestPhoneCode>>
      try {
        result = await requestPhoneCode(deps, currentWebSession(c).user.id, Date.now())
      } catch (error) {
        // No number, one WhatsApp cannot reach, already verified, WhatsApp off or failing: said
        // on the page with the API's status; anything else goes on to the error page.
        const status = refusal(error, [400, 409, 502, 503])
        const message = (error as Error).message
        return settingsAnswer(c, { edit: { form, values: {}, errors: formError(message) } }, status)
      }
      // The number's own limits: the same 429 as the API's (a page, for a browser).
      if ('limited' in result) return refuseNumber(c, result.limited)
      return backTo(c, 'phone-code', 'phone')
    },
  )
  .post(
    '/settings/phone/verify',
    requireCsrf,
    requireWebUser,
    rateLimit(RULES.phoneCodeCheck),
    failureBudget(FAILURE_BUDGETS.codeCheck, signedInAccount),
    async (c) => {
      const form = PHONE_FORMS.verify
      const submitted = await submittedFields(c)
      const values = submitted ?? {}
      if (!submitted) {
        return settingsAnswer(c, { edit: { form, values, errors: formError(UNREADABLE) } }, 400)
      }
      const parsed = PhoneCodeForm.safeParse(submitted)
      if (!parsed.success) {
        const unknown = Object.keys(submitted).filter((name) => name !== 'code')
        const errors =
          unknown.length > 0
            ? formError(`This form has no field named ${unknown.join(', ')}.`)
            : fieldErrors('code', 'Type the 6 digits of the code')
        return settingsAnswer(c, { edit: { form, values, errors } }, 400)
      }
      const deps = { db: createDb(c.env.DB), codeKey: await authConfig(c.env).codeKey }
      try {
        await confirmPhoneCode(deps, currentWebSession(c).user.id, parsed.data.code, Date.now())
      } catch (error) {
        refusal(error, [400])
        return settingsAnswer(
          c,
          { edit: { form, values, errors: fieldErrors('code', WRONG_CODE) } },
          400,
        )
      }
      return backTo(c, 'phone-verified', 'phone')
    },
  )

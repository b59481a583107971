// The account forms' bodies: the API's own strict schemas (so the rules cannot drift), the one
// form the API has no body for (a new code, sent with the code form's fields), and their labels.
import { z } from '@hono/zod-openapi'
import { emailField, ResetPasswordBody } from '../../auth/schemas.ts'

export {
  EmailBody as ForgotForm,
  ResetPasswordBody as ResetForm,
  SigninBody as SigninForm,
  SignupBody as SignupForm,
  VerifyEmailBody as VerifyForm,
} from '../../auth/schemas.ts'

/**
 * "Send a new code" is the code form's second button, so it carries that form's fields; the code
 * typed so far (perhaps nothing, perhaps half) is ignored.
 */
export const ResendForm = z.strictObject({
  email: emailField,
  code: z.string().max(32).optional(),
})

/** The first password after a bare proof: the reset form's rule, without the code. */
export const ChoosePasswordForm = ResetPasswordBody.pick({ newPassword: true })

/** What each page calls its fields; a message about a field the page lacks goes to the form. */
export const LABELS = {
  signup: { name: 'Name', email: 'Email', password: 'Password' },
  signin: { email: 'Email', password: 'Password' },
  verify: { email: 'Email', code: 'Code' },
  forgot: { email: 'Email' },
  reset: { email: 'Email', code: 'Code', newPassword: 'New password' },
  choosePassword: { newPassword: 'New password' },
} satisfies Record<string, Record<string, string>>

// The account page's forms. The API deactivates and deletes on a signed-in request alone; a page
// asks for a deliberate act first: a ticked box to deactivate, the account's email typed out to
// delete (not the password: an account made with Google has none its owner knows). Recovery is
// the API's own body (email and password, sign-in's rules).
import { z } from '@hono/zod-openapi'
import { RecoverAccountBody } from '../../account/schemas.ts'
import { emailField } from '../../auth/schemas.ts'

export { RecoverAccountBody as RecoverForm }

export const DeactivateForm = z.strictObject({
  confirm: z.literal('yes', { error: 'Tick the box to confirm' }),
})

export const DeleteForm = z.strictObject({ email: emailField })

/** Reactivation asks nothing more: it only turns the alerts back on. */
export const ActivateForm = z.strictObject({})

/** Signing out everywhere takes nothing away that cannot be linked again: one button. */
export const EverywhereForm = z.strictObject({})

export const LABELS = {
  deactivate: { confirm: 'Confirm' },
  delete: { email: 'Email' },
  activate: {},
  everywhere: {},
  recover: { email: 'Email', password: 'Password' },
} satisfies Record<string, Record<string, string>>

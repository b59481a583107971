// Zod schemas of account deletion and recovery.
import { z } from '@hono/zod-openapi'
import { AuthResultSchema, SigninBody } from '../auth/schemas.ts'

/** The same fields and rules as sign-in: recovery is a sign-in to a deleted account. */
export const RecoverAccountBody = SigninBody.openapi('RecoverAccount')

export const RecoveredSchema = AuthResultSchema.extend({ message: z.string() }).openapi(
  'AccountRecovered',
)

export const AccountDeletedSchema = z
  .object({
    message: z.string(),
    recoverable_until: z.string().openapi({ example: '2026-12-22T14:35:00.000Z' }),
  })
  .openapi('AccountDeleted')

// Mailing a code after the answer, shared by the API's code routes and the web app's forms.
import type { Context } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { emailChannelStatus } from '../channels/email/resend.ts'
import { createDb, type Db } from '../db/client.ts'
import { defer } from '../http/defer.ts'
import { ApiError } from '../lib/errors.ts'
import { log } from '../lib/log.ts'
import type { IssuedCode } from './accounts.ts'
import type { CodePurpose } from './codes.ts'
import { sendCodeEmail } from './emails.ts'

export const EMAIL_DISABLED = 'Email delivery is not configured; no code was sent'

/**
 * Issues a code when the account calls for one and mails it, after the answer: neither the answer
 * nor its timing may reveal whether the account exists, so a provider failure is only logged
 * (by sendCodeEmail). Only a dead email channel, the same for every address, is reported (503).
 */
export async function mailCodeIfIssued(
  c: Context<AppEnv>,
  email: string,
  purpose: CodePurpose,
  issue: (db: Db, email: string) => Promise<IssuedCode | undefined>,
) {
  if (!emailChannelStatus(c.env).enabled) throw new ApiError(503, EMAIL_DISABLED)
  await defer(c, async () => {
    try {
      const issued = await issue(createDb(c.env.DB), email)
      if (issued) await sendCodeEmail(c.env, issued.user, purpose, issued.code, issued.expiresAt)
    } catch (error) {
      log.with({ requestId: c.get('requestId') }).error('code-email-failed', { purpose, error })
    }
  })
}

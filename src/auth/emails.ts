// The emails that carry verification and password-reset codes, and what sending them reports.
import { sendEmail, type SendResult } from '../channels/email.ts'
import type { Env } from '../env.ts'
import { escapeHtml } from '../lib/html.ts'
import { log } from '../lib/log.ts'
import { toIso } from '../lib/time.ts'
import { CODE_TTL_MS, type CodePurpose } from './codes.ts'

const WORDING: Record<CodePurpose, { subject: string; intro: string }> = {
  verify_email: {
    subject: 'Your Contest Alerts verification code',
    intro: 'Use this code to verify your email address:',
  },
  reset_password: {
    subject: 'Your Contest Alerts password reset code',
    intro: 'Use this code to choose a new password:',
  },
}

export function codeEmail(purpose: CodePurpose, name: string, code: string) {
  const { subject, intro } = WORDING[purpose]
  const minutes = CODE_TTL_MS / 60_000
  const outro =
    `The code expires in ${minutes} minutes. ` + 'If you did not ask for it, ignore this email.'
  return {
    subject,
    text: `Hello ${name},\n\n${intro}\n\n${code}\n\n${outro}\n`,
    html: `<p>Hello ${escapeHtml(name)},</p><p>${intro}</p>
<p style="font-size:24px;font-weight:bold;letter-spacing:4px">${code}</p><p>${outro}</p>`,
  }
}

/** What an auth response says about the code it mailed; never claims a send that did not happen. */
export interface CodeDelivery {
  sent: boolean
  expiresAt?: string
  reason?: string
}

export async function sendCodeEmail(
  env: Env,
  to: { email: string; name: string },
  purpose: CodePurpose,
  code: string,
  expiresAt: number,
): Promise<{ delivery: CodeDelivery; result: SendResult }> {
  const result = await sendEmail(env, { to: to.email, ...codeEmail(purpose, to.name, code) })
  if (!result.ok) {
    // A provider failure loses a code nobody else hears about (the code routes answer before
    // sending); no provider at all is a setting, already visible in the answers.
    const write = result.provider === 'none' ? log.warn : log.error
    write('code-email-not-sent', { purpose, error: result.error })
  }
  const delivery: CodeDelivery = result.ok
    ? { sent: true, expiresAt: toIso(expiresAt) }
    : {
        sent: false,
        reason:
          result.provider === 'none'
            ? 'Email delivery is not configured; no code was sent'
            : 'The email could not be sent; request a new code later',
      }
  return { delivery, result }
}

// What the watchdog's incidents set off, as a platform's do: `service.degraded` to the webhook
// subscribers and one email to the admins when one opens, `service.recovered` when it closes.
// Each is told by the run whose write opened or closed the incident, so once.
import { sendEmail } from '../channels/email/resend.ts'
import { createDb } from '../db/client.ts'
import type { Env } from '../env.ts'
import { escapeHtml } from '../lib/html.ts'
import { log } from '../lib/log.ts'
import { toIso } from '../lib/time.ts'
import { adminAddresses } from '../users/admin-queries.ts'
import { emitWebhookEventsSafely } from '../webhooks/emit.ts'
import type { OpenedIncident } from './incidents.ts'

/** How a subject of the service is named to people. */
const SUBJECT_NAMES: Record<string, string> = {
  scheduler: 'The reminder scheduler',
  sync: 'The contest sync',
  deliveries: 'Deliveries',
}

export const serviceSubjectName = (subject: string) => SUBJECT_NAMES[subject] ?? subject

function eventData(incident: OpenedIncident & { endedAt?: number }) {
  return {
    subject: incident.subject,
    kind: incident.kind,
    ...(incident.detail && { detail: incident.detail }),
    startedAt: toIso(incident.startedAt),
    ...(incident.endedAt !== undefined && { endedAt: toIso(incident.endedAt) }),
  }
}

export async function tellServiceIncidentOpened(
  env: Env,
  incident: OpenedIncident,
  now: number,
): Promise<void> {
  await emitWebhookEventsSafely(
    env,
    [
      {
        type: 'service.degraded',
        subject: incident.subject,
        occurrence: incident.startedAt,
        data: eventData(incident),
      },
    ],
    now,
  )
  await emailAdmins(env, incident)
}

export async function tellServiceIncidentClosed(
  env: Env,
  incident: OpenedIncident & { endedAt: number },
  now: number,
): Promise<void> {
  await emitWebhookEventsSafely(
    env,
    [
      {
        type: 'service.recovered',
        subject: incident.subject,
        occurrence: incident.startedAt,
        data: eventData(incident),
      },
    ],
    now,
  )
}

async function emailAdmins(env: Env, incident: OpenedIncident) {
  try {
    const to = await adminAddresses(createDb(env.DB))
    if (to.length === 0) return
    const line = `${serviceSubjectName(incident.subject)}: ${incident.kind}. ${incident.detail ?? ''}`
    const result = await sendEmail(env, {
      to,
      subject: `[Contest Alerts] Service incident: ${serviceSubjectName(incident.subject)} ${incident.kind}`,
      text: [
        `Since ${toIso(incident.startedAt)}:`,
        '',
        line.trim(),
        '',
        'See /status. You will hear once more only through the service.recovered webhook event.',
      ].join('\n'),
      html: `<p>Since ${toIso(incident.startedAt)}:</p><p>${escapeHtml(line.trim())}</p><p>See <code>/status</code>.</p>`,
      // One email per incident, even if two runs get this far for the same opening.
      idempotencyKey: `service-incident-${incident.subject}-${incident.startedAt}`,
    })
    if (!result.ok) log.warn('service-incident-email-failed', { error: result.error })
  } catch (error) {
    log.error('service-incident-email-failed', { error })
  }
}

// What the sync's opened and closed incidents set off: a row in the incidents /status lists, a
// webhook event each, and one email to the admins when an incident opens (not every six hours
// while it lasts).
import { sendEmail } from '../channels/email/resend.ts'
import { createDb } from '../db/client.ts'
import type { Env } from '../env.ts'
import { escapeHtml } from '../lib/html.ts'
import { log } from '../lib/log.ts'
import { toIso } from '../lib/time.ts'
import { platformName } from '../platforms/registry.ts'
import { recordPlatformIncidents } from '../status/incidents.ts'
import type { PlatformTransition } from './job.ts'
import { platformsOf } from './platform-view.ts'
import { adminAddresses } from '../users/admin-queries.ts'
import { emitPlatformEvents } from '../webhooks/platform-events.ts'

export async function announceIncidents(
  env: Env,
  transitions: PlatformTransition[],
  now: number,
): Promise<void> {
  if (transitions.length === 0) return
  await recordPlatformIncidents(
    createDb(env.DB),
    transitions.map((t) => ({
      platform: t.platform,
      transition: t.transition,
      // A closing keeps the kind its opening recorded; the state it carries is ok.
      state: t.transition === 'opened' ? t.status.state : 'unknown',
      startedAt: t.startedAt,
    })),
    now,
  )
  const views = new Map((await platformsOf(env, now)).map((v) => [v.id, v]))
  await emitPlatformEvents(
    env,
    transitions.map((t) => ({
      type: t.transition === 'opened' ? 'platform.degraded' : 'platform.recovered',
      platform: t.platform,
      startedAt: t.startedAt,
      data: { ...views.get(t.platform), ...(t.status.lastError && { reason: t.status.lastError }) },
    })),
    now,
  )
  const opened = transitions.filter((t) => t.transition === 'opened')
  if (opened.length > 0) await emailAdmins(env, opened, now)
}

async function emailAdmins(env: Env, opened: PlatformTransition[], now: number) {
  try {
    const to = await adminAddresses(createDb(env.DB))
    if (to.length === 0) return
    const lines = opened.map((t) =>
      `${platformName(t.platform)}: ${t.status.state}, ${t.status.lastError ?? ''}`.trim(),
    )
    const names = opened.map((t) => platformName(t.platform)).join(', ')
    const result = await sendEmail(env, {
      to,
      subject: `[Contest Alerts] Platform sync ${opened.length > 1 ? 'incidents' : 'incident'}: ${names}`,
      text: [
        `Since ${toIso(now)}:`,
        '',
        ...lines,
        '',
        'Stored contests are kept; see GET /platforms. You will hear once more when it heals.',
      ].join('\n'),
      html: `<p>Since ${toIso(now)}:</p><ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul><p>Stored contests are kept; see <code>GET /platforms</code>.</p>`,
      // One email per incident, even if the job runs twice for the same opening.
      idempotencyKey: `platform-incident-${opened.map((t) => `${t.platform}-${t.startedAt}`).join('-')}`,
    })
    if (!result.ok) log.warn('platform-incident-email-failed', { error: result.error })
  } catch (error) {
    log.error('platform-incident-email-failed', { error })
  }
}

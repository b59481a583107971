// platform.degraded and platform.recovered: once per incident each, however many syncs it lasts.
import { emitWebhookEventsSafely, type WebhookBindings } from './emit.ts'

export interface PlatformIncident {
  type: 'platform.degraded' | 'platform.recovered'
  platform: string
  /** When the incident began: the occurrence that makes a repeated emit a no-op. */
  startedAt: number
  /** The platform as GET /platforms shows it. */
  data: Record<string, unknown>
}

export async function emitPlatformEvents(
  env: WebhookBindings,
  incidents: PlatformIncident[],
  now: number,
): Promise<void> {
  await emitWebhookEventsSafely(
    env,
    incidents.map((i) => ({
      type: i.type,
      subject: i.platform,
      occurrence: i.startedAt,
      data: i.data,
    })),
    now,
  )
}

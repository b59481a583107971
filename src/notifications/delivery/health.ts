// Whether each channel can send (a provider is configured) and is sending well (its recent
// deliveries mostly succeed); read from settings and D1, never by calling a provider.
import { CHANNELS, channelModule, type Channel } from '../../channels/registry.ts'
import { MINUTE_MS } from '../../lib/time.ts'
import type { Notifier } from '../context.ts'

const WINDOW_MS = 15 * MINUTE_MS
// Fewer outcomes than this say nothing either way.
const MIN_OUTCOMES = 10
const MAX_FAILING_SHARE = 0.5

export type ChannelHealth = Record<Channel, { enabled: boolean; healthy: boolean }>

/**
 * A channel is healthy when it is enabled, its configuration is usable, and at most half of its
 * last 15 minutes' outcomes (at least 10 of them) failed or had to be retried.
 */
export async function channelHealth(n: Notifier, now: number): Promise<ChannelHealth> {
  // `status <> 'PENDING'` repeats the index's condition, which SQLite needs to see to use it.
  const { results } = await n.d1
    .prepare(
      `SELECT channel, count(*) AS total, sum(status <> 'SENT') AS failing
        FROM notification_deliveries
        WHERE status IN ('SENT', 'FAILED', 'RETRYING') AND updated_at >= ?1
          AND status <> 'PENDING'
        GROUP BY channel`,
    )
    .bind(now - WINDOW_MS)
    .all<{ channel: Channel; total: number; failing: number }>()
  const recent = new Map(results.map((r) => [r.channel, r]))
  const health = {} as ChannelHealth
  for (const channel of CHANNELS) {
    const r = recent.get(channel)
    const failing = !!r && r.total >= MIN_OUTCOMES && r.failing / r.total > MAX_FAILING_SHARE
    const provider = n.providers[channel]
    const enabled = provider !== undefined
    const configured = enabled && (channelModule(channel).configured?.(provider) ?? true)
    health[channel] = { enabled, healthy: configured && !failing }
  }
  return health
}

/** 'degraded' when an enabled channel is unhealthy or no channel can send at all. */
export function overallHealth(health: ChannelHealth): 'ok' | 'degraded' {
  const enabled = CHANNELS.filter((c) => health[c].enabled)
  if (enabled.length === 0) return 'degraded'
  return enabled.every((c) => health[c].healthy) ? 'ok' : 'degraded'
}

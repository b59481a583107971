// The contest a notification is about, fresh from the catalogue or, once the contest is gone, as
// the payload recorded it when the notification was created.
import { payloadText, type ContentContext, type StoredNotification } from './rendering.ts'
import { contestUrl, platformName } from '../../contests/describe.ts'

export interface ContestView {
  name: string
  platform: string
  type?: string
  startTime?: number
  durationMinutes?: number
  url?: string
}

export function contestView(n: StoredNotification, ctx: ContentContext): ContestView | undefined {
  const row = n.contestId ? ctx.contests.get(n.contestId) : undefined
  if (row) {
    return {
      name: row.name,
      platform: platformName(row.platform),
      type: row.type,
      startTime: row.startTime,
      durationMinutes: row.durationMinutes,
      url: contestUrl(row),
    }
  }
  const name = payloadText(n.payload?.contestName)
  if (!name) return undefined
  const start = Date.parse(payloadText(n.payload?.startTime) ?? '')
  return {
    name,
    platform: platformName(payloadText(n.payload?.platform) ?? ''),
    type: payloadText(n.payload?.contestType),
    startTime: Number.isNaN(start) ? undefined : start,
    url: payloadText(n.payload?.url),
  }
}

// A community destination's settings in words, for the bots' replies and the web app.
import type { CommunityDestinationRow } from '../db/schema.ts'
import { platformName } from '../platforms/registry.ts'
import { describeRoles } from './roles.ts'

/** The chat service of a destination, in words. */
export const SERVICE_NAMES = { telegram: 'Telegram', discord: 'Discord' } as const

const lead = (minutes: number) =>
  minutes % 1440 === 0
    ? `${minutes / 1440} d`
    : minutes % 60 === 0
      ? `${minutes / 60} h`
      : `${minutes} min`

/** A Discord channel's events: on, or stopped by the server's refusal. */
const eventsLine = (d: CommunityDestinationRow) =>
  d.eventsRefusedAt === null
    ? 'Events: each contest is added to the server’s events.'
    : 'Events: stopped, the bot needs the Manage Events permission.'

/** What the place gets, one line per setting. */
export function describeDestination(d: CommunityDestinationRow): string {
  const lines = [
    ...(d.threadId !== '' ? [`Topic: ${d.threadTitle ?? d.threadId}.`] : []),
    `Announcements here: ${d.platforms.map(platformName).join(', ')}.`,
    `When: ${d.leadTimes.map(lead).join(', ')} before each start.`,
    `Types: ${d.contestTypes.length > 0 ? d.contestTypes.join(', ') : 'all'}.`,
    ...(d.includeWords.length > 0 ? [`Only names with: ${d.includeWords.join(', ')}.`] : []),
    ...(d.excludeWords.length > 0 ? [`Never names with: ${d.excludeWords.join(', ')}.`] : []),
    ...(d.minDuration !== null ? [`At least ${d.minDuration} minutes long.`] : []),
    ...(d.cleanup ? ['Cleanup: each announcement is deleted after its contest ends.'] : []),
    ...(d.events ? [eventsLine(d)] : []),
    ...(Object.keys(d.roles).length > 0 ? [`Roles: ${describeRoles(d).join(', ')}.`] : []),
    ...(d.rankUpdates ? ['Rank updates: members’ results after each contest.'] : []),
    ...(d.deadAt !== null ? [`Stopped: ${d.deadReason ?? 'the bot could not post'}.`] : []),
  ]
  return lines.join('\n')
}

// A contest as the page shows it: words, links and times, with the UTC text a browser without
// JavaScript keeps.
import {
  contestCalendarPath,
  contestUrl,
  formatDuration,
  platformName,
} from '../contests/describe.ts'
import { platformContestsUrl } from '../platforms/registry.ts'
import type { ContestRow } from '../db/schema.ts'
import { toIso } from '../lib/time.ts'
import { formatTime } from '../lib/time-words.ts'
import { contestTypeName } from './contest-type-names.ts'

export interface ContestView {
  id: string
  name: string
  platform: string
  platformName: string
  type: string
  startIso: string
  startText: string
  duration: string
  durationMinutes: number
  url: string
  calendarPath: string
}

/** Only http(s) links reach an href: a stored `javascript:` URL would run on a click. */
function webUrl(url: string | undefined): string | undefined {
  if (!url) return undefined
  try {
    return ['http:', 'https:'].includes(new URL(url).protocol) ? url : undefined
  } catch {
    return undefined
  }
}

export function contestView(row: ContestRow): ContestView {
  return {
    id: row.id,
    name: row.name,
    platform: row.platform,
    platformName: platformName(row.platform),
    // The words the settings page ticks (Cook-Off), not the catalogue's code (COOK_OFF).
    type: contestTypeName(row.type),
    startIso: toIso(row.startTime),
    // What the page says until its script names the viewer's zone.
    startText: formatTime(row.startTime, 'UTC'),
    duration: formatDuration(row.durationMinutes),
    durationMinutes: row.durationMinutes,
    // A contest synced without a link still gets one: its platform's list of contests.
    url: webUrl(contestUrl(row)) ?? platformContestsUrl(row.platform) ?? '/',
    calendarPath: contestCalendarPath(row.id),
  }
}

// A community destination as the API shows it: its filters, and whether it can still post.
import type { z } from '@hono/zod-openapi'
import type { CommunityDestinationRow } from '../db/schema.ts'
import { toIso } from '../lib/time.ts'
import type { CommunitySchema } from './schemas.ts'

export function toApiCommunity(d: CommunityDestinationRow): z.infer<typeof CommunitySchema> {
  return {
    id: d.id,
    service: d.channel,
    chatId: d.chatId,
    threadId: d.threadId === '' ? null : d.threadId,
    threadTitle: d.threadId === '' ? null : d.threadTitle,
    title: d.title,
    roleId: d.roleId,
    platforms: d.platforms,
    contestTypes: d.contestTypes,
    leadTimes: d.leadTimes,
    includeWords: d.includeWords,
    excludeWords: d.excludeWords,
    minDuration: d.minDuration,
    cleanup: d.cleanup,
    events: d.events,
    eventsRefusedAt: d.eventsRefusedAt === null ? null : toIso(d.eventsRefusedAt),
    roles: d.roles,
    rankUpdates: d.rankUpdates,
    state: d.deadAt === null ? 'active' : 'dead',
    deadReason: d.deadReason,
    deadAt: d.deadAt === null ? null : toIso(d.deadAt),
    createdAt: toIso(d.createdAt),
    updatedAt: toIso(d.updatedAt),
  }
}

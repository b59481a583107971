// Zod schemas of /communities: a claimed destination as the API shows it, the change of its
// filters (the bots' rules, filters.ts), and a claim code.
import { z } from '@hono/zod-openapi'
import { idParam } from '../lib/validation.ts'
import { CommunityFiltersSchema } from './filters.ts'

export const CommunityIdParam = idParam('community')

/** Any of the filters, each checked as the bots check it; unknown keys refused. */
export const CommunityUpdateBody = CommunityFiltersSchema.partial()
  .extend({
    /** After each contest of its platforms, one post of its members' results. */
    rankUpdates: z.boolean().optional(),
    /** Each announcement deleted soon after its contest ends. */
    cleanup: z.boolean().optional(),
  })
  .openapi('CommunityUpdate', {
    example: { leadTimes: [1440, 60], contestTypes: ['div2'], excludeWords: ['kotlin'] },
  })

export const CommunitySchema = z
  .object({
    id: z.string(),
    service: z.enum(['telegram', 'discord']),
    /** Telegram's chat id or Discord's channel id. */
    chatId: z.string(),
    /** Telegram: the forum topic (message_thread_id) of the group, null for the whole chat. */
    threadId: z.string().nullable(),
    /** Telegram: the forum topic's name, when the bot saw it. */
    threadTitle: z.string().nullable(),
    title: z.string(),
    roleId: z.string().nullable(),
    platforms: z.array(z.string()),
    contestTypes: z.array(z.string()),
    leadTimes: z.array(z.number().int()),
    includeWords: z.array(z.string()),
    excludeWords: z.array(z.string()),
    minDuration: z.number().int().nullable(),
    /** Each announcement is deleted soon after its contest ends. */
    cleanup: z.boolean(),
    /** Discord: each contest announced also becomes a scheduled event of the server. */
    events: z.boolean(),
    /** Discord: when the server refused the events (the bot lacks Manage Events). */
    eventsRefusedAt: z.string().nullable(),
    /** Discord: the role each platform or contest type pings. */
    roles: z.record(z.string(), z.string()),
    /** After each contest of its platforms, one post of its members' results (rank updates). */
    rankUpdates: z.boolean(),
    state: z.enum(['active', 'dead']),
    deadReason: z.string().nullable(),
    deadAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Community')

export const CommunityListSchema = z
  .object({ communities: z.array(CommunitySchema) })
  .openapi('CommunityList')

export const ClaimCodeSchema = z
  .object({
    code: z.string().openapi({ example: 'K7MX2PQR9T' }),
    expiresAt: z.string().openapi({ example: '2026-11-28T05:00:00.000Z' }),
  })
  .openapi('CommunityClaimCode')

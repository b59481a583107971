// Zod schemas of the Telegram endpoints: the link answer, the webhook's secret header and the
// part of Telegram's Update the bot reads.
import { z } from '@hono/zod-openapi'

export const TelegramLinkSchema = z
  .object({
    url: z.string().openapi({ example: 'https://t.me/ContestAlertBot?start=q3J0bW9y...' }),
    expiresAt: z.string().openapi({ example: '2026-11-22T14:50:00.000Z' }),
  })
  .openapi('TelegramLink')

// Optional here, so a missing header is the 401 of a wrong secret rather than a 400.
export const TelegramWebhookHeaders = z.object({
  'x-telegram-bot-api-secret-token': z.string().optional(),
})

// Telegram's Update is large and grows: unknown keys are accepted, what the bot reads is checked.
const Message = z.looseObject({
  chat: z.looseObject({
    id: z.number().int(),
    type: z.string().optional(),
    title: z.string().optional(),
  }),
  from: z.looseObject({ id: z.number().int() }).optional(),
  text: z.string().optional(),
  // "X left the group": the member's handles leave its rank posts.
  left_chat_member: z.looseObject({ id: z.number().int() }).optional(),
  // A message in a forum topic of a supergroup: its topic, and (replying to the topic's first
  // message) the topic's name. Outside forums a reply thread has an id too, so is_topic_message
  // says whether it is a topic.
  message_thread_id: z.number().int().optional(),
  is_topic_message: z.boolean().optional(),
  reply_to_message: z
    .looseObject({
      forum_topic_created: z.looseObject({ name: z.string().max(128) }).optional(),
    })
    .optional(),
})

// A press on a button under one of the bot's messages (buttons.ts).
const CallbackQuery = z.looseObject({
  id: z.string().max(100),
  from: z.looseObject({ id: z.number().int() }),
  data: z.string().max(64).optional(),
})

export const TelegramUpdateSchema = z
  .looseObject({
    update_id: z.number().int(),
    message: Message.optional(),
    // A post in a channel the bot administers: its author is the channel itself.
    channel_post: Message.optional(),
    callback_query: CallbackQuery.optional(),
  })
  .openapi('TelegramUpdate')

export const TelegramAckSchema = z.object({ ok: z.literal(true) }).openapi('TelegramAck')

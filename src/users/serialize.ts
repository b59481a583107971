// User rows rendered as API objects; no secret column (password hash, tokens) is ever read here.
import { WEBHOOK_CHANNELS } from '../channels/registry.ts'
import type { PushSubscriptionRow, UserRow } from '../db/schema.ts'
import { toIso } from '../lib/time.ts'
import { channelStatusOf, type ChannelBlockRow } from './channel-blocks.ts'
import { isPhoneVerified } from './phone.ts'
import { preferencesOf } from './preferences.ts'

/** What anyone allowed to see a user sees (GET /users/:id). */
export function toUserView(row: UserRow) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    ...(row.phoneNumber != null && { phoneNumber: row.phoneNumber }),
    preferences: preferencesOf(row),
    isActive: row.isActive,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  }
}

/** The signed-in user's own profile, also the `user` of every auth response. */
export function toProfile(row: UserRow) {
  return {
    ...toUserView(row),
    role: row.role,
    emailVerified: row.emailVerifiedAt != null,
    phoneVerified: isPhoneVerified(row),
    ...(row.lastLogin != null && { lastLogin: toIso(row.lastLogin) }),
  }
}

/**
 * Per webhook channel, whether a webhook is set and its URL masked: the token alone lets anyone
 * post to the channel, so no answer shows it, not even to its owner.
 */
function webhookViews(row: UserRow) {
  return Object.fromEntries(
    WEBHOOK_CHANNELS.map(({ id, destination: { field, webhook } }) => {
      const url = row[field]
      return [id, { webhookSet: url !== null, maskedWebhookUrl: url && webhook.mask(url) }]
    }),
  ) as Record<
    (typeof WEBHOOK_CHANNELS)[number]['id'],
    { webhookSet: boolean; maskedWebhookUrl: string | null }
  >
}

/** GET /users/profile: the profile, the channels the service turned off, Telegram's link, webhooks. */
export function toOwnProfile(row: UserRow, blocks: readonly ChannelBlockRow[]) {
  return {
    ...toProfile(row),
    channelStatus: channelStatusOf(blocks),
    // Whether a chat is linked, never which: the chat id is the user's Telegram identity.
    telegram: { linked: row.telegramChatId != null },
    ...webhookViews(row),
  }
}

/** An entry of the admin user list. */
export function toAdminUser(row: UserRow) {
  return { ...toUserView(row), role: row.role }
}

/** The answer to PUT /users/profile, as the spec lists it. */
export function toProfileUpdateResult(row: UserRow) {
  const { isActive: _active, createdAt: _created, updatedAt: _updated, ...result } = toUserView(row)
  return result
}

export function toPushSubscription(row: PushSubscriptionRow) {
  return {
    id: row.id,
    endpoint: row.endpoint,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  }
}

/** The answer to a role change, in both API areas (the spec's message wording). */
export function toRoleChangeResult(row: UserRow) {
  const message = `User role updated to ${row.role} successfully`
  return { id: row.id, email: row.email, name: row.name, role: row.role, message }
}

// What the settings page shows of a user: the profile as GET /users/profile builds it (the same
// functions: preferences, channelStatus, Telegram's and Discord's state), how many browsers get
// push, whether a private feed exists, and which channels this server can use at all.
import type { FeedAddress } from '../../calendar/feed-address.ts'
import { feedCreatedAt } from '../../calendar/feeds.ts'
import { channelProviders, enabledChannels, type Channel } from '../../channels/registry.ts'
import { createDb } from '../../db/client.ts'
import { settings, type Env } from '../../env.ts'
import { listPushSubscriptions } from '../../users/push-subscriptions.ts'
import { findUserWithBlocks } from '../../users/queries.ts'
import { toOwnProfile } from '../../users/serialize.ts'
import type { TelegramLink } from '../../users/telegram-links.ts'
import { pushPublicKey } from '../push-routes.ts'
import type { SettingsEdit } from './settings-form.ts'

export type OwnProfile = ReturnType<typeof toOwnProfile>

export interface SettingsView {
  profile: OwnProfile
  /** Browsers (push subscriptions) of the user. */
  pushBrowsers: number
  /** When the private feed's address was made; undefined when there is none. */
  feedCreatedAt?: number
  /**
   * Whether this server can send over each channel (settings and provider credentials); for push,
   * whether a browser can subscribe (VAPID keys set and well formed).
   */
  available: Record<Channel, boolean>
}

/** The page's data in one round of reads; undefined when the user is gone meanwhile. */
export async function loadSettingsView(
  env: Env,
  userId: string,
): Promise<SettingsView | undefined> {
  const db = createDb(env.DB)
  const [found, browsers, feed] = await Promise.all([
    findUserWithBlocks(db, userId),
    listPushSubscriptions(db, userId),
    feedCreatedAt(db, userId),
  ])
  if (!found) return undefined
  const s = settings(env)
  const enabled = enabledChannels(channelProviders(env))
  return {
    profile: toOwnProfile(found.user, found.blocks),
    pushBrowsers: browsers.length,
    feedCreatedAt: feed,
    available: {
      ...enabled,
      push: pushPublicKey(env).enabled,
      // The same test as POST /users/telegram/link: a bot to link to, and a way to write to it.
      telegram: Boolean(s.TELEGRAM_BOT_USERNAME) && enabled.telegram,
    },
  }
}

/** What every section of the page is given. */
export interface SectionInput {
  view: SettingsView
  /** The form that came back with errors, when one did (each section looks for its own). */
  edit?: SettingsEdit
  /** What this section's last step did. */
  notice?: string
  /** The time of the answer: "since" and the zone's current offset. */
  now: number
  /** A secret made by this very request, shown once: a Telegram link, a feed's address. */
  secrets?: { telegram?: TelegramLink; feed?: FeedAddress }
}

/** The edit when it is of form `id` (or one of `ids`): its values and errors fill it again. */
export const editOf = (edit: SettingsEdit | undefined, ...ids: string[]) =>
  edit && ids.includes(edit.form) ? edit : undefined

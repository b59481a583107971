// The address of a user's private feed: made (or remade) for a live account, shown once.
import type { Db } from '../db/client.ts'
import { requireProvenAddress } from '../users/destinations.ts'
import { findUser } from '../users/queries.ts'
import { issueFeedToken } from './feeds.ts'

export interface FeedAddress {
  url: string
  webcalUrl: string
}

/** The feed's addresses on the service's public address (APP_URL). */
export function feedUrls(appUrl: string, token: string): FeedAddress {
  const url = `${appUrl.replace(/\/+$/, '')}/calendar/${token}.ics`
  return { url, webcalUrl: url.replace(/^https?:\/\//, 'webcal://') }
}

/**
 * A new address for the user, replacing any earlier one; undefined when the user is gone, 403
 * while the address is unproven.
 */
export async function newFeedAddress(
  db: Db,
  userId: string,
  appUrl: string,
  now: number,
): Promise<FeedAddress | undefined> {
  const user = await findUser(db, userId)
  if (!user) return undefined
  requireProvenAddress(user)
  return feedUrls(appUrl, await issueFeedToken(db, userId, now))
}

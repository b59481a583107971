// A member's handle in a community destination, as both bots run it: `/contests handle` on
// Discord and `/handle` in a Telegram group register, check and remove it (results/
// community-members.ts holds the rows and the proof), here with the words the bots answer.
// Only destinations with rank updates on take members; a judge that cannot be read is a reply,
// never an error.
import type { Db } from '../db/client.ts'
import type { Env } from '../env.ts'
import { ApiError } from '../lib/errors.ts'
import { isPlatform, platformName } from '../platforms/registry.ts'
import {
  membersOf,
  registerMember,
  removeMember,
  type Registration,
} from '../results/community-members.ts'
import { resultsJudges, resultsRequest } from '../results/judges.ts'
import type { CommunityDestinationRow } from '../db/schema.ts'

/** The judges a member may register a handle of (those whose results the service reads). */
export const memberPlatforms = () => resultsJudges().map((j) => j.module.id)

/** What a member asked: register (or check) a handle, remove one or all, or list theirs. */
export type MemberAsk =
  | { kind: 'register'; platform: string; handle: string }
  | { kind: 'remove'; platform?: string }
  | { kind: 'list' }

export interface MemberPlace {
  destination: CommunityDestinationRow | undefined
  memberId: string
  /** The account the member's chat identity is linked to (Telegram), if any. */
  userId?: string | null
  /** How the command is typed again, for the words: "/contests handle codeforces tourist". */
  again: (platform: string, handle: string) => string
}

/** The bot's answer; `private` when it holds a token for the member's eyes (not a secret). */
export interface MemberAnswer {
  text: string
  private: boolean
}

const HANDLE = /^[\w.\-]{1,64}$/

function registrationWords(r: Registration, place: MemberPlace): MemberAnswer {
  if (r.state === 'refused') return { text: r.message, private: false }
  const name = platformName(r.row.platform)
  if (r.state === 'proven') {
    const how =
      r.via === 'account'
        ? 'Proven through your linked account'
        : r.via === 'token'
          ? 'Proven'
          : 'Already proven'
    return {
      text: `${how}: ${r.row.handle}'s results on ${name} appear in this chat's rank posts.`,
      private: false,
    }
  }
  const again = place.again(r.row.platform, r.row.handle)
  const where = r.judge.results.proof.where
  const text = r.fresh
    ? `To prove ${r.row.handle} is yours, place ${r.row.proofToken} in ${where} on ${name} ` +
      `(${r.judge.results.proof.editUrl}); it works for 24 hours. Then run ${again} again.`
    : `The token ${r.row.proofToken} is not in the public profile of ${r.row.handle} on ${name} ` +
      `yet: place it in ${where} and run ${again} again.`
  return { text, private: true }
}

/** Runs the member's ask in the destination; the words to answer. */
export async function memberCommand(
  env: Env,
  db: Db,
  place: MemberPlace,
  ask: MemberAsk,
  now: number,
): Promise<MemberAnswer> {
  const d = place.destination
  if (!d || !d.rankUpdates || d.deadAt !== null) {
    return {
      text: 'This chat has no rank updates; an administrator turns them on first.',
      private: false,
    }
  }
  if (ask.kind === 'list') {
    const rows = await membersOf(db, d.id, place.memberId)
    const list = rows.map(
      (r) => `${platformName(r.platform)} ${r.handle} (${r.state.toLowerCase()})`,
    )
    return {
      text: list.length > 0 ? `Your handles here: ${list.join(', ')}.` : 'You have no handle here.',
      private: false,
    }
  }
  if (ask.kind === 'remove') {
    if (ask.platform !== undefined && !isPlatform(ask.platform)) {
      return { text: `No platform is called ${ask.platform}.`, private: false }
    }
    const gone = await removeMember(db, d.id, place.memberId, ask.platform)
    return {
      text:
        gone > 0 ? 'Removed: your results are no longer posted here.' : 'You have no handle here.',
      private: false,
    }
  }
  const platform = ask.platform.toLowerCase()
  if (!memberPlatforms().includes(platform)) {
    return {
      text: `Rank updates read the results of ${memberPlatforms().join(', ')}; not of ${ask.platform}.`,
      private: false,
    }
  }
  if (!HANDLE.test(ask.handle)) return { text: 'That is not a handle.', private: false }
  const deps = {
    request: (judge: Parameters<typeof resultsRequest>[1]) => resultsRequest(env, judge, now),
  }
  try {
    const r = await registerMember(
      db,
      deps,
      {
        destinationId: d.id,
        memberId: place.memberId,
        userId: place.userId ?? null,
        platform,
        handle: ask.handle,
      },
      now,
    )
    return registrationWords(r, place)
  } catch (error) {
    // The judge did not answer, or answered what cannot be read (askJudge's 502 and 503).
    if (error instanceof ApiError) return { text: error.message, private: false }
    throw error
  }
}

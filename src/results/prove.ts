// Proving an own handle: the judge's public profile is read and must hold the account's token in
// one of the fields the judge publishes; then the handle is the account's, in the judge's spelling.
import type { Db } from '../db/client.ts'
import { ApiError, notFound } from '../lib/errors.ts'
import type { ResultsRequest } from '../platforms/results.ts'
import { findHandle, markProven, type JudgeHandleRow } from './handles.ts'
import {
  isClistJudge,
  noResultsMessage,
  proveOnClistMessage,
  resultsJudge,
  type ResultsJudge,
} from './judges.ts'
import { fieldsHoldToken } from './proof-token.ts'
import { askJudge } from './upstream-answer.ts'

export const NO_OWN_HANDLE = 'Your account has no own handle with that id'

const unprocessable = (message: string) => new ApiError(422, message)

export interface ProveDeps {
  /** The context of one request to the judge (its base URL from the environment). */
  request(judge: ResultsJudge): ResultsRequest
}

/**
 * Proves the account's own handle `id`, asking the judge once. A proven handle is answered as it
 * is, without asking. Throws 404 for a handle the account does not hold as its own, 422 when the
 * proof fails (the token expired, the judge has no such handle, the token is not in its profile)
 * or can never be made (a platform whose results come from clist.by, which shows no profile),
 * 502 or 503 when the judge cannot be read.
 */
export async function proveHandle(
  db: Db,
  deps: ProveDeps,
  input: { userId: string; id: string },
  now: number,
): Promise<JudgeHandleRow> {
  const row = await findHandle(db, input.userId, input.id, 'OWN')
  if (!row) throw notFound(NO_OWN_HANDLE)
  if (row.state === 'PROVEN') return row
  const judge = resultsJudge(row.platform)
  if (!judge) {
    // clist.by shows no profile field: a handle there is never proven, however long it waits.
    const platform = row.platform
    throw unprocessable(
      isClistJudge(platform) ? proveOnClistMessage(platform) : noResultsMessage(platform),
    )
  }
  const token = row.proofToken
  if (token === null || row.proofExpiresAt === null || row.proofExpiresAt <= now) {
    throw unprocessable(
      'The proof token has expired: link the handle again (POST /users/handles) for a fresh one',
    )
  }

  const name = judge.module.name
  const profile = await askJudge(name, () =>
    judge.results.proof.profile(deps.request(judge), row.handle),
  )
  if (!profile) throw unprocessable(`${name} has no handle ${row.handle}`)
  if (!fieldsHoldToken(profile.fields, token)) {
    throw unprocessable(
      `The token ${token} is not in the public profile of ${profile.handle} on ${name} yet: ` +
        `place it in ${judge.results.proof.where} and try again`,
    )
  }
  const proven = await markProven(
    db,
    { userId: input.userId, id: row.id, platform: row.platform, profile },
    now,
  )
  // Removed while the judge was asked: nothing is left to prove.
  if (!proven) throw notFound(NO_OWN_HANDLE)
  return proven
}

// The failure budget of wrong phone codes for a cookie session. The API's budget counts the
// account of the access token (signedInAccount: `user:<id>`); a browser has a session instead, so
// its account is named the same way from the session, and the page and the API spend one budget.
// (The route limits need nothing here: http/rate-limit.ts counts a web session's user itself.)
import type { AccountOf } from '../../http/failure-budget.ts'
import { webSession } from './web-session.ts'

export const sessionAccount: AccountOf = async (c) => {
  const session = await webSession(c)
  return session ? `user:${session.user.id}` : undefined
}

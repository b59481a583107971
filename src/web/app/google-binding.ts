// Ties a web Google sign-in to the browser that began it: the flow's client state is an HMAC of
// the browser's __Host-csrf secret and the page to go on to, so a finished sign-in handed to
// another browser (login CSRF: someone else's account slipped into a victim's browser) is refused.
import type { Env } from '../../env.ts'
import { linkSigner } from '../../users/signed-link.ts'
import { safeNext } from './next-path.ts'

const signer = linkSigner('web-google-binding', 'google-sign-in')
const SEPARATOR = '~'

/** The client state of a flow begun by this browser; `next` rides along, signed with it. */
export async function bindingState(env: Env, browser: string, next: string): Promise<string> {
  return `${await signer.sign(env, [browser, next])}${SEPARATOR}${next}`
}

/** Where to go next, when the state was made for this browser; undefined otherwise. */
export async function boundNext(
  env: Env,
  browser: string | undefined,
  state: string,
): Promise<string | undefined> {
  const at = state.indexOf(SEPARATOR)
  if (!browser || at < 0) return undefined
  const next = state.slice(at + 1)
  if (!(await signer.verify(env, [browser, next], state.slice(0, at)))) return undefined
  return safeNext(next)
}

// The web app's 404 page: an address under /app that names no page, or a record (a notification,
// a contest) that is not there for the signed-in user. A page in the app's frame, never the API's
// JSON, so a person who followed an old link still has the navigation to go on from.
import type { Context } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { AppFrame } from './app-frame.tsx'
import { csrfToken } from './csrf.ts'
import { webSession, type WebSession } from './web-session.ts'

export interface NotFoundPageProps {
  session?: WebSession
  csrf: string
  message: string
}

export function NotFoundPage({ session, csrf, message }: NotFoundPageProps) {
  return (
    <AppFrame title="Page not found" session={session} csrf={csrf}>
      <p id="message">{message}</p>
      <ul class="next-steps">
        <li>
          <a href={session ? '/app/' : '/app/signin'}>{session ? 'Your account' : 'Sign in'}</a>
        </li>
        <li>
          <a href="/">See the contests coming up</a>
        </li>
      </ul>
    </AppFrame>
  )
}

/** Answers 404 with the page; signed in or not, the header offers the usual links. */
export async function notFoundPage(c: Context<AppEnv>, message: string): Promise<Response> {
  const session = await webSession(c)
  return c.html(<NotFoundPage session={session} csrf={await csrfToken(c)} message={message} />, 404)
}

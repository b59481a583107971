// GET /app/: the signed-in landing page.
import { createRouter } from '../../http/router.ts'
import { csrfToken } from './csrf.ts'
import { LandingPage } from './landing-page.tsx'
import { wordsFor } from './lookup.ts'
import { currentWebSession, requireWebUser } from './web-session.ts'

const NOTICES: Record<string, string> = {
  verified: 'Your email address is verified.',
  'password-set': 'Your email address is verified and your password is set.',
  google: 'Signed in with Google.',
}

export const landingRoutes = createRouter().get('/', requireWebUser, async (c) => {
  const notice = wordsFor(NOTICES, c.req.query('notice'))
  const session = currentWebSession(c)
  return c.html(<LandingPage session={session} csrf={await csrfToken(c)} notice={notice} />)
})

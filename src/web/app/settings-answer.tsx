// The settings page as an answer: read fresh for the signed-in user, with a form that came back,
// the notice of a step, or a secret made by this request (shown once), and the status to send.
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { AppEnv } from '../../app-env.ts'
import { notFound } from '../../lib/errors.ts'
import { csrfToken } from './csrf.ts'
import { SettingsPage, type SettingsPageProps } from './settings-page.tsx'
import { loadSettingsView } from './settings-view.ts'
import { currentWebSession } from './web-session.ts'

export type SettingsState = Pick<SettingsPageProps, 'edit' | 'notice' | 'secrets'>

/** Behind requireWebUser: the page as stored now, plus `state`. */
export async function settingsAnswer(
  c: Context<AppEnv>,
  state: SettingsState = {},
  status: ContentfulStatusCode = 200,
) {
  const session = currentWebSession(c)
  const view = await loadSettingsView(c.env, session.user.id)
  // The session's user was live a moment ago; deleted since, the page has no one to show.
  if (!view) throw notFound('User not found')
  const csrf = await csrfToken(c)
  return c.html(
    <SettingsPage session={session} csrf={csrf} view={view} now={Date.now()} {...state} />,
    status,
  )
}

/** The way back after a step: the page at the section, which says what was done. */
export const backTo = (c: Context<AppEnv>, saved: string, section: string) =>
  c.redirect(`/app/settings?saved=${saved}#${section}`, 303)

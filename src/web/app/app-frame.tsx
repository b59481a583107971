// The frame of every web app page: the document with the CSRF token for forms and scripts, and
// the header's navigation (Contests, Settings, History, Followed, Communities, Handles, Account and Sign out once signed
// in; Sign in and Create account before).
import type { Child } from 'hono/jsx'
import { Document } from '../document.tsx'
import { CsrfContext, CsrfField } from './csrf-field.tsx'
import type { WebSession } from './web-session.ts'

export const SITE_NAME = 'Contest Alerts'

/** The header's links, by what a page may mark as the current one. */
export type NavItem =
  | 'contests'
  | 'settings'
  | 'history'
  | 'subscriptions'
  | 'communities'
  | 'handles'
  | 'account'
  | 'signin'
  | 'signup'

export interface AppFrameProps {
  /** The page's heading, and its title before the site's name. */
  title: string
  /** The signed-in session, when there is one: the header then offers the signed-in links. */
  session?: WebSession
  /** The page's CSRF token (csrfToken(c)): in <meta name="csrf-token"> and every <CsrfField />. */
  csrf: string
  current?: NavItem
  children?: Child
}

function NavLink(props: { href: string; item: NavItem; current?: NavItem; children: Child }) {
  const here = props.item === props.current
  return (
    <li>
      <a href={props.href} aria-current={here ? 'page' : undefined}>
        {props.children}
      </a>
    </li>
  )
}

export function AppFrame({ title, session, csrf, current, children }: AppFrameProps) {
  return (
    <Document
      title={`${title} – ${SITE_NAME}`}
      head={
        <>
          <meta name="csrf-token" content={csrf} />
          {/* The service's header says no-referrer, under which a browser's own form posts say
              Origin: null; same-origin keeps other sites told nothing and our origin checkable. */}
          <meta name="referrer" content="same-origin" />
        </>
      }
      skipLabel="Skip to the content"
    >
      <CsrfContext.Provider value={csrf}>
        <header class="app-header">
          <nav class="app-nav" aria-label="Main">
            <a class="brand" href={session ? '/app/' : '/'}>
              {SITE_NAME}
            </a>
            <ul>
              <NavLink href="/" item="contests" current={current}>
                Contests
              </NavLink>
              {session ? (
                <>
                  <NavLink href="/app/settings" item="settings" current={current}>
                    Settings
                  </NavLink>
                  <NavLink href="/app/history" item="history" current={current}>
                    History
                  </NavLink>
                  <NavLink href="/app/subscriptions" item="subscriptions" current={current}>
                    Followed
                  </NavLink>
                  <NavLink href="/app/communities" item="communities" current={current}>
                    Communities
                  </NavLink>
                  <NavLink href="/app/handles" item="handles" current={current}>
                    Handles
                  </NavLink>
                  <NavLink href="/app/account" item="account" current={current}>
                    Account
                  </NavLink>
                  <li>
                    <form class="signout" method="post" action="/app/signout">
                      <CsrfField />
                      <button type="submit" class="link-button">
                        Sign out
                      </button>
                    </form>
                  </li>
                </>
              ) : (
                <>
                  <NavLink href="/app/signin" item="signin" current={current}>
                    Sign in
                  </NavLink>
                  <NavLink href="/app/signup" item="signup" current={current}>
                    Create account
                  </NavLink>
                </>
              )}
            </ul>
          </nav>
        </header>
        <main id="main" tabindex={-1}>
          <h1>{title}</h1>
          {children}
        </main>
      </CsrfContext.Provider>
    </Document>
  )
}

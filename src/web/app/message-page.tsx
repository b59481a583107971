// A page that only says something (a refused form, a limit, a failure) and where to go next. It
// carries no form, so it needs no CSRF token and renders even when the session could not be read.
import { Document } from '../document.tsx'
import { SITE_NAME } from './app-frame.tsx'

export interface MessagePageProps {
  title: string
  message: string
  /** Where to go from here; the app's home and the contests when not given. */
  links?: { href: string; label: string }[]
}

const DEFAULT_LINKS = [
  { href: '/app/', label: 'Your account' },
  { href: '/', label: 'Contests' },
]

export function MessagePage({ title, message, links = DEFAULT_LINKS }: MessagePageProps) {
  return (
    <Document title={`${title} – ${SITE_NAME}`} skipLabel="Skip to the content">
      <header class="app-header">
        <nav class="app-nav" aria-label="Main">
          <a class="brand" href="/">
            {SITE_NAME}
          </a>
        </nav>
      </header>
      <main id="main" tabindex={-1}>
        <h1>{title}</h1>
        <p id="message">{message}</p>
        <ul class="next-steps">
          {links.map((link) => (
            <li>
              <a href={link.href}>{link.label}</a>
            </li>
          ))}
        </ul>
      </main>
    </Document>
  )
}

// The frame of every page: language, viewport, the hashed stylesheet and script, nothing inline,
// and the footer with the link to the service's status.
import type { Child } from 'hono/jsx'
import { raw } from 'hono/html'
import { appScript, appStyle } from './assets/hashed.ts'

export interface DocumentProps {
  title: string
  /** More of <head>, after the assets (the web app's CSRF token meta). */
  head?: Child
  /** The skip link's words; the home page skips to its contests. */
  skipLabel?: string
  children?: Child
  /** More of the footer, before the status link (the home page's link to the API reference). */
  footer?: Child
}

export function Document({
  title,
  head,
  skipLabel = 'Skip to the contests',
  children,
  footer,
}: DocumentProps) {
  return (
    <>
      {raw('<!doctype html>')}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="color-scheme" content="light dark" />
          <title>{title}</title>
          {/* No favicon request: the empty data URL is the whole icon. */}
          <link rel="icon" href="data:," />
          <link rel="stylesheet" href={appStyle.path} />
          <script src={appScript.path} defer></script>
          {head}
        </head>
        <body>
          <a class="skip-link" href="#main">
            {skipLabel}
          </a>
          {children}
          <footer>
            {footer}
            <p>
              <a href="/status">Service status</a>: platforms, deliveries and incidents.
            </p>
          </footer>
        </body>
      </html>
    </>
  )
}

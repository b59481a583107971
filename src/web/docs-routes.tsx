// GET /docs: the interactive API reference (Scalar) over /openapi.json, with its script served from
// this origin at a versioned address, under a Content-Security-Policy of this origin only.
import { raw } from 'hono/html'
import { createRouter } from '../http/router.ts'
import { IMMUTABLE } from './asset-routes.ts'
import { SCALAR_BUNDLE, SCALAR_VERSION } from './assets/scalar-bundle.js'

/** The bundle's address: the version the lock file pins is in it, so browsers keep it a year. */
export const DOCS_SCRIPT_FILE = `scalar-api-reference.${SCALAR_VERSION}.js`
const DOCS_SCRIPT_PATH = `/docs/${DOCS_SCRIPT_FILE}`

/**
 * What the reference reads from its element's data-configuration (Scalar's HTML API), so the page
 * holds no script of its own. Nothing that would reach another origin: no default fonts (Scalar's
 * font CDN), no telemetry, no "Ask AI" agent, MCP generator or the developer tools' share and
 * deploy (Scalar's services; the tools show on localhost unless told not to).
 */
const CONFIGURATION = {
  url: '/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
}

// Nothing inline may run: the one script is the bundle (its bundled zod probes for eval once and,
// refused, does without). Styles must be allowed inline: measured in Chromium, the bundle injects
// five <style> elements, only one of which takes a CSP nonce, and sets style attributes; a nonce
// or hashes would not cover them. data: for the icon.
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ')

const PAGE_HEADERS = { 'Content-Security-Policy': DOCS_CONTENT_SECURITY_POLICY }

const SCRIPT_HEADERS = {
  'Content-Type': 'text/javascript; charset=utf-8',
  'Cache-Control': IMMUTABLE,
}

function DocsPage() {
  return (
    <>
      {raw('<!doctype html>')}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>Contest Alert Service API</title>
          <link rel="icon" href="data:," />
        </head>
        <body>
          {/* A data block, never run: Scalar mounts the reference beside it. */}
          <script
            id="api-reference"
            type="application/json"
            data-configuration={JSON.stringify(CONFIGURATION)}
          ></script>
          <script src={DOCS_SCRIPT_PATH}></script>
        </body>
      </html>
    </>
  )
}

/** Mounted at /docs; kept out of /openapi.json, as the pages and assets are. */
export const docsRoutes = createRouter()
  .get('/', (c) => c.html(<DocsPage />, 200, PAGE_HEADERS))
  .get(`/${DOCS_SCRIPT_FILE}`, (c) => c.body(SCALAR_BUNDLE, 200, SCRIPT_HEADERS))

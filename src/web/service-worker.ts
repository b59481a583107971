// GET /sw.js: the service worker of Web Push, at the root so its scope is the whole origin.
import { createRouter } from '../http/router.ts'
import { SERVICE_WORKER_SCRIPT } from './assets/service-worker-script.ts'
import { PAGE_HEADERS } from './page-headers.ts'

/** Where pages register it; a worker's scope can be no wider than its script's folder. */
export const SERVICE_WORKER_PATH = '/sw.js'

// Not hashed like /assets/: a service worker keeps its address for life, so browsers must ask
// again (no-cache) to see a new version. The page's CSP governs the worker too; it loads nothing.
const HEADERS = {
  ...PAGE_HEADERS,
  'Content-Type': 'text/javascript; charset=utf-8',
  'Cache-Control': 'no-cache',
}

/** A file, not an API read: kept out of /openapi.json, as the pages and assets are. */
export const serviceWorkerRoutes = createRouter().get(SERVICE_WORKER_PATH, (c) =>
  c.body(SERVICE_WORKER_SCRIPT, 200, HEADERS),
)

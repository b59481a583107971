// GET /assets/<name>.<hash>.<ext>: the page's script and stylesheet, kept by browsers for a year.
import { createRouter } from '../http/router.ts'
import { renderNotFound } from '../http/errors.ts'
import { ASSET_PREFIX, ASSETS } from './assets/hashed.ts'

// The hash is in the address, so an answer never changes: no revalidation, ever.
export const IMMUTABLE = 'public, max-age=31536000, immutable'

/** Mounted at /assets; an old hash is a 404, since only the current bytes are in the code. */
export const assetRoutes = createRouter().get('/:file', (c) => {
  const asset = ASSETS.get(`${ASSET_PREFIX}${c.req.param('file')}`)
  if (!asset) return renderNotFound(c)
  return c.body(asset.body, 200, {
    'Content-Type': asset.contentType,
    'Cache-Control': IMMUTABLE,
  })
})

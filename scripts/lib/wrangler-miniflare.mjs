// The Miniflare (and workerd) that `wrangler dev` itself runs, not whichever copy is hoisted, for
// the scripts that run the Worker in workerd without `wrangler dev`.
import { createRequire } from 'node:module'

const fromWrangler = createRequire(createRequire(import.meta.url).resolve('wrangler/package.json'))

export const { Miniflare } = fromWrangler('miniflare')
/** wrangler.toml's bindings and settings as Miniflare's worker options. */
export const { unstable_getMiniflareWorkerOptions: miniflareOptionsOf } = fromWrangler('wrangler')

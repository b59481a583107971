// Asset files named by a hash of their bytes, so a page can let browsers keep them for a year.
import { APP_SCRIPT } from './app-script.ts'
import { APP_STYLE } from './app-style.ts'

export interface Asset {
  /** `/assets/app.<hash>.js`: a change of content is a new address. */
  path: string
  body: string
  contentType: string
}

/**
 * cyrb53, a fast 53-bit string hash. Not cryptographic: it only has to tell one version of a
 * file from the next, and it runs synchronously when the module loads, on every runtime alike.
 */
function contentHash(text: string): string {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ ch, 2654435761)
    h2 = Math.imul(h2 ^ ch, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0')
}

export const ASSET_PREFIX = '/assets/'

function asset(name: string, extension: string, body: string, contentType: string): Asset {
  return { path: `${ASSET_PREFIX}${name}.${contentHash(body)}.${extension}`, body, contentType }
}

export const appScript = asset('app', 'js', APP_SCRIPT, 'text/javascript; charset=utf-8')
export const appStyle = asset('app', 'css', APP_STYLE, 'text/css; charset=utf-8')

export const ASSETS: ReadonlyMap<string, Asset> = new Map(
  [appScript, appStyle].map((a) => [a.path, a]),
)

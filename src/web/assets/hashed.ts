// Asset files named by a hash of their bytes, so a page can let browsers keep them for a year.
import { cyrb53 } from '../../lib/hash.ts'
import { APP_SCRIPT } from './app-script.ts'
import { APP_STYLE } from './app-style.ts'

export interface Asset {
  /** `/assets/app.<hash>.js`: a change of content is a new address. */
  path: string
  body: string
  contentType: string
}

/** The asset's version in its name: the content's cyrb53, 14 hex digits. */
const contentHash = (text: string) => cyrb53(text).toString(16).padStart(14, '0')

export const ASSET_PREFIX = '/assets/'

function asset(name: string, extension: string, body: string, contentType: string): Asset {
  return { path: `${ASSET_PREFIX}${name}.${contentHash(body)}.${extension}`, body, contentType }
}

export const appScript = asset('app', 'js', APP_SCRIPT, 'text/javascript; charset=utf-8')
export const appStyle = asset('app', 'css', APP_STYLE, 'text/css; charset=utf-8')

export const ASSETS: ReadonlyMap<string, Asset> = new Map(
  [appScript, appStyle].map((a) => [a.path, a]),
)

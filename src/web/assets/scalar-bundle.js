// The API reference's browser bundle (@scalar/api-reference's standalone script) as text, served
// by /docs from this origin, and its version, which the lock file pins. JavaScript, not TypeScript:
// the project's TypeScript settings refuse import attributes. wrangler imports the bundle as a Text
// module (the [[rules]] of wrangler.toml) and Deno by its `type: 'text'`, both from node_modules.
// @ts-self-types="./scalar-bundle.d.ts"
import bundle from '../../../node_modules/@scalar/api-reference/dist/browser/standalone.js' with { type: 'text' }
import manifest from '../../../node_modules/@scalar/api-reference/package.json' with { type: 'json' }

export const SCALAR_BUNDLE = bundle
export const SCALAR_VERSION = manifest.version

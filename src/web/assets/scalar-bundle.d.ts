// The types of scalar-bundle.js, for TypeScript and `deno check` (the file names them itself).

/** The text of @scalar/api-reference's dist/browser/standalone.js. */
export declare const SCALAR_BUNDLE: string
/** The version of @scalar/api-reference that package-lock.json pins. */
export declare const SCALAR_VERSION: string

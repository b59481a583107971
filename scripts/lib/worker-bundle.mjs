// What the benchmarks that run workerd themselves (bench:fanout, bench:session, bench:signin) hand
// to Miniflare: a source bundled as wrangler bundles a Worker, and the D1 migrations as statements.
import { build } from 'esbuild'
import { readdirSync, readFileSync } from 'node:fs'

/** One ES module for workerd: the file `entry`, or the TypeScript `contents` (resolved from here). */
export async function bundleWorker({ entry, contents }) {
  const result = await build({
    ...(contents
      ? { stdin: { contents, resolveDir: process.cwd(), loader: 'ts' } }
      : { entryPoints: [entry] }),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'browser'],
    external: ['cloudflare:*', 'node:*'],
    write: false,
    logLevel: 'error',
  })
  return result.outputFiles[0].text
}

/** Every statement of migrations/, in order, as drizzle-kit separates them. */
export function migrationStatements() {
  return readdirSync('migrations')
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .flatMap((f) =>
      readFileSync(`migrations/${f}`, 'utf8')
        .split('--> statement-breakpoint')
        .map((s) => s.trim())
        .filter(Boolean),
    )
}

// Serves the Worker from workerd through Miniflare, with the bindings and state `wrangler dev`
// would give it but without wrangler's dev proxy, which runs every HTML answer through
// HTMLRewriter (to add its live-reload script) and so costs a page far more than production does.
// Usage: node scripts/lib/workerd-serve.mjs --port P --persist-to DIR [--script ENTRY] [--var K:V]...
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { parseArgs } from 'node:util'
import { wrangler } from './dev-server.mjs'
import { Miniflare, miniflareOptionsOf } from './wrangler-miniflare.mjs'

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    'persist-to': { type: 'string' },
    script: { type: 'string' },
    var: { type: 'string', multiple: true, default: [] },
  },
})
const vars = Object.fromEntries(
  values.var.map((pair) => [pair.slice(0, pair.indexOf(':')), pair.slice(pair.indexOf(':') + 1)]),
)

// wrangler bundles the entry as a deploy would; its only other modules come from the Text rules
// of wrangler.toml (the API reference's browser bundle), kept as files beside the bundle.
const outdir = mkdtempSync(join(tmpdir(), 'workerd-serve-'))
wrangler(`deploy ${values.script ?? ''} --dry-run --outdir ${outdir}`)
const entry = `${basename(values.script ?? 'index.ts').replace(/\.ts$/, '')}.js`
const texts = readdirSync(outdir).filter((f) => f.endsWith('.js') && f !== entry)

const { workerOptions } = miniflareOptionsOf('wrangler.toml')
const mf = new Miniflare({
  ...workerOptions,
  modules: [
    { type: 'ESModule', path: join(outdir, entry) },
    ...texts.map((f) => ({ type: 'Text', path: join(outdir, f) })),
  ],
  modulesRoot: outdir,
  // The modules are listed above; wrangler.toml's rules name paths of the sources, not of these.
  modulesRules: undefined,
  bindings: { ...workerOptions.bindings, ...vars },
  // The layout of `wrangler dev --persist-to`, so the state it seeded is the state served.
  defaultPersistRoot: join(values['persist-to'], 'v3'),
  host: '127.0.0.1',
  port: Number(values.port),
})
await mf.ready

const stop = async () => {
  await mf.dispose()
  rmSync(outdir, { recursive: true, force: true })
  process.exit(0)
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)

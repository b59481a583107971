// Imports a TypeScript module (and what it imports) from Node 20, which cannot load TypeScript:
// bundled by the esbuild that wrangler depends on into a temporary .mjs, imported, then removed.
// The stand-ins under test/stand-ins stay the single source of their behaviour this way.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

// Resolved from wrangler's own location: esbuild is its dependency, not the project's.
const fromWrangler = createRequire(createRequire(import.meta.url).resolve('wrangler'))
const { build } = fromWrangler('esbuild')

/** The module at `source` (a TypeScript file path), bundled with its imports. */
export async function importTypeScript(source) {
  const { outputFiles } = await build({
    entryPoints: [source],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
  })
  const dir = mkdtempSync(join(tmpdir(), 'ts-module-'))
  try {
    const module = join(dir, 'module.mjs')
    writeFileSync(module, outputFiles[0].contents)
    return await import(pathToFileURL(module).href)
  } finally {
    // Imported once read; the file is not needed after that.
    rmSync(dir, { recursive: true, force: true })
  }
}

// The API reference at /docs: everything it loads comes from this origin under a strict CSP, with
// no inline script, and the script it loads is the pinned bundle, kept by browsers for a year.
import { describe, expect, it } from 'vitest'
import { DOCS_SCRIPT_FILE } from '../src/web/docs-routes.tsx'
import { call } from './helpers/worker.ts'

/** The directives of a Content-Security-Policy header, by name. */
function directives(policy: string | null): Map<string, string[]> {
  const parsed = new Map<string, string[]>()
  for (const part of (policy ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/)
    if (name) parsed.set(name, sources)
  }
  return parsed
}

/** Every URL the page names in an attribute (src, href, data-*): what it would load. */
function urlsIn(html: string): string[] {
  const urls = [...html.matchAll(/\s(?:src|href|action)="([^"]*)"/g)].map((m) => m[1])
  const configuration = html.match(/data-configuration="([^"]*)"/)?.[1] ?? '{}'
  const config = JSON.parse(configuration.replaceAll('&quot;', '"'))
  return [...urls, config.url]
}

describe('/docs', () => {
  it('answers with a CSP that lets only this origin’s script run, nothing inline', async () => {
    const res = await call('/docs')
    expect(res.status).toBe(200)
    const csp = directives(res.headers.get('Content-Security-Policy'))
    expect(csp.get('default-src')).toEqual(["'none'"])
    expect(csp.get('script-src')).toEqual(["'self'"])
    expect(csp.get('connect-src')).toEqual(["'self'"])
    expect(csp.get('frame-ancestors')).toEqual(["'none'"])
    expect(csp.get('base-uri')).toEqual(["'none'"])
    for (const sources of csp.values()) {
      expect(sources.filter((s) => /^(https?:|\*|'unsafe-eval'|'strict-dynamic')/.test(s))).toEqual(
        [],
      )
    }
  })

  it('names no other origin and holds no script to run of its own', async () => {
    const html = await (await call('/docs')).text()
    expect(html).not.toMatch(/https?:\/\//)
    const urls = urlsIn(html)
    expect(urls).toContain('/openapi.json')
    expect(urls).toContain(`/docs/${DOCS_SCRIPT_FILE}`)
    for (const url of urls) expect(url).toMatch(/^(\/|data:)/)
    // Each script element either loads a file of this origin or is a data block, never run.
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    expect(scripts.length).toBeGreaterThan(0)
    for (const [, attributes, content] of scripts) {
      const isFile = /\ssrc="\//.test(attributes) && content.trim() === ''
      const isData = /\stype="application\/json"/.test(attributes)
      expect(isFile || isData, attributes).toBe(true)
    }
  })

  it('serves the pinned bundle as JavaScript from a versioned address, kept for a year', async () => {
    expect(DOCS_SCRIPT_FILE).toMatch(/^scalar-api-reference\.\d+\.\d+\.\d+\.js$/)
    const res = await call(`/docs/${DOCS_SCRIPT_FILE}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8')
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
    const script = await res.text()
    expect(script.length).toBeGreaterThan(1_000_000)
    expect(script).toContain('createApiReference')
    expect((await call('/docs/scalar-api-reference.0.0.0.js')).status).toBe(404)
  })
})

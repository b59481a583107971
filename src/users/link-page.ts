// The small HTML pages that signed email links answer with (mute, unsubscribe): one frame, no
// script, and the headers that keep them out of frames, caches and search engines.
import { z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { escapeHtml } from '../lib/html.ts'
import { errorResponse } from '../lib/openapi.ts'

export interface Page {
  status: 200 | 201 | 400 | 404 | 409 | 410
  html: string
}

const STYLE =
  'body{margin:0;padding:24px;background:#f5f7fa;font-family:Arial,Helvetica,sans-serif;' +
  'font-size:15px;line-height:1.5;color:#1f2933}main{max-width:480px;margin:0 auto;' +
  'padding:24px;background:#fff}h1{font-size:20px;margin:0 0 16px}button{padding:10px 18px;' +
  'background:#2563eb;color:#fff;border:0;border-radius:6px;font-size:15px;cursor:pointer}' +
  'footer{max-width:480px;margin:16px auto 0}'

/** A page of a title (escaped here) and a body of HTML the caller escaped. */
export function page(status: Page['status'], title: string, body: string): Page {
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>` +
    `<style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main>` +
    // Every page's footer links the service's status (web/document.tsx has the same).
    '<footer><p><a href="/status">Service status</a></p></footer></body></html>'
  return { status, html }
}

export const para = (html: string) => `<p>${html}</p>`

/** The page of a malformed or forged link. */
export const invalidLinkPage = (): Page =>
  page(
    400,
    'This link is not valid',
    para('The link is incomplete or was changed. Open it from the email again.'),
  )

// No script, no framing, no other origin; a fresh answer every time, and never indexed.
const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; " +
    "frame-ancestors 'none'; base-uri 'none'",
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex',
}

export const sendPage = (c: Context<AppEnv>, p: Page) => c.html(p.html, p.status, PAGE_HEADERS)

/**
 * The query of a signed link: optional and loose, so a missing or malformed token gets the HTML
 * page of a bad link, not the API's JSON error; other parameters (mail trackers add some) are
 * ignored. `maxLength` is the token's fixed length: its anchored pattern refuses a longer one
 * (that same page) after reading no further than that.
 */
export const linkTokenQuery = (description: string, maxLength: number) =>
  z.object({ token: z.string().optional().openapi({ description, maxLength }) })

/** An HTML answer in the OpenAPI document. */
export const htmlResponse = (description: string) => ({
  content: { 'text/html': { schema: z.string() } },
  description,
})

/** The answers every signed link's page may give besides its own 200. */
export const linkPageResponses = (gone: string) => ({
  400: htmlResponse('The link is malformed or its signature does not match'),
  410: htmlResponse(gone),
  // The general rate limit answers in the API's JSON shape, before the route is reached.
  429: errorResponse('Too many requests'),
})

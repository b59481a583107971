// A browser, as far as the web app can tell: it keeps the cookies it is given, sends them back,
// says where its requests come from (Origin, Sec-Fetch-Site) and reads each page's CSRF token.
import { expect } from 'vitest'
import type { Env } from '../../src/env.ts'
import { selectOne } from './html.ts'
import { expectNoSecrets, MAIL, nextIp } from './users.ts'
import { BASE, call } from './worker.ts'

export interface WebPage {
  res: Response
  status: number
  html: string
  /** The page's CSRF token, from <meta name="csrf-token"> (undefined on pages without one). */
  csrf?: string
}

/** The response's Set-Cookie lines, one cookie each (workerd has getSetCookie; its types lag). */
export function setCookies(res: Response): string[] {
  return (res.headers as unknown as { getSetCookie(): string[] }).getSetCookie()
}

/** Whether the response sets a cookie of that name. */
export const setsCookie = (res: Response, name: string) =>
  setCookies(res).some((line) => line.startsWith(`${name}=`))

/** One Set-Cookie line's name, value and attributes (names lower-cased). */
export function parseSetCookie(line: string) {
  const [pair, ...rest] = line.split(';').map((part) => part.trim())
  const at = pair.indexOf('=')
  const attributes = Object.fromEntries(
    rest.map((part) => {
      const eq = part.indexOf('=')
      return eq < 0
        ? [part.toLowerCase(), true]
        : [part.slice(0, eq).toLowerCase(), part.slice(eq + 1)]
    }),
  ) as Record<string, string | true>
  return { name: pair.slice(0, at), value: pair.slice(at + 1), attributes }
}

export class WebClient {
  readonly cookies = new Map<string, string>()
  readonly ip = nextIp()

  constructor(readonly bindings: Partial<Env> = {}) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    return {
      'CF-Connecting-IP': this.ip,
      // What a browser asks for when it opens a page or sends a form.
      Accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
      ...(cookie && { Cookie: cookie }),
      ...extra,
    }
  }

  private keep(res: Response) {
    for (const line of setCookies(res)) {
      const { name, value, attributes } = parseSetCookie(line)
      if (attributes['max-age'] === '0' || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }

  async fetch(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
    const res = await call(
      path,
      { ...init, headers: this.headers(init.headers), redirect: 'manual' },
      { ...MAIL, ...this.bindings },
    )
    this.keep(res)
    return res
  }

  private async read(res: Response): Promise<WebPage> {
    const html = await res.text()
    await expectNoSecrets(html)
    let csrf: string | undefined
    if (html.includes('name="csrf-token"')) {
      csrf = (await selectOne(html, 'meta[name="csrf-token"]')).attrs.content
    }
    return { res, status: res.status, html, csrf }
  }

  /** A page, as a browser's address bar opens it. */
  async get(path: string, headers: Record<string, string> = {}): Promise<WebPage> {
    const res = await this.fetch(path, {
      headers: { 'Sec-Fetch-Site': 'none', 'Sec-Fetch-Mode': 'navigate', ...headers },
    })
    return this.read(res)
  }

  /**
   * A form post from one of our pages (same origin). `csrf` is put in the form's hidden field
   * unless it is false; `headers` replace what a browser would say.
   */
  async post(
    path: string,
    fields: Record<string, string | string[]>,
    options: { csrf?: string | false; headers?: Record<string, string> } = {},
  ): Promise<WebPage> {
    const body = new URLSearchParams()
    if (options.csrf) body.append('_csrf', options.csrf)
    for (const [name, value] of Object.entries(fields)) {
      for (const v of [value].flat()) body.append(name, v)
    }
    const res = await this.fetch(path, {
      method: 'POST',
      body: body.toString(),
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: new URL(BASE).origin,
        'Sec-Fetch-Site': 'same-origin',
        ...options.headers,
      },
    })
    return this.read(res)
  }

  /** Opens `page`, then posts its form to `action` with the page's token, as a person would. */
  async submit(page: string, action: string, fields: Record<string, string | string[]>) {
    const opened = await this.get(page)
    expect(opened.status, `${page} opens`).toBe(200)
    expect(opened.csrf, `${page} carries a CSRF token`).toBeTruthy()
    return this.post(action, fields, { csrf: opened.csrf })
  }

  /** The Location of a redirect, as a path with its query. */
  static location(page: WebPage): string {
    const location = page.res.headers.get('Location')
    expect(location, `a redirect (status ${page.status})`).toBeTruthy()
    const url = new URL(location!, BASE)
    return url.origin === new URL(BASE).origin ? url.pathname + url.search : url.href
  }
}

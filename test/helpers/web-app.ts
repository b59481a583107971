// The signed-in web app as a test meets it: a browser signed in through the sign-in page, and what
// every page of /app answers with (HTML, its CSP, never stored).
import { expect } from 'vitest'
import type { Env } from '../../src/env.ts'
import { CONTENT_SECURITY_POLICY } from '../../src/web/page-headers.ts'
import { select, selectOne } from './html.ts'
import type { TestUser } from './users.ts'
import { WebClient, type WebPage } from './web.ts'

export const SESSION_COOKIE = '__Host-session'

/** A browser signed in as `user` through the sign-in page (its own address, `bindings` kept). */
export async function signedInBrowser(user: TestUser, bindings: Partial<Env> = {}) {
  const client = new WebClient(bindings)
  const answer = await client.submit('/app/signin', '/app/signin', {
    email: user.email,
    password: user.password,
  })
  expect(answer.status, answer.html).toBe(303)
  return client
}

/** A page of the web app: HTML with the pages' CSP, never stored, with the status expected. */
export function expectPage(page: WebPage, status: number) {
  expect(page.status, page.html).toBe(status)
  expect(page.res.headers.get('Content-Type')).toBe('text/html; charset=UTF-8')
  expect(page.res.headers.get('Cache-Control')).toBe('no-store')
  expect(page.res.headers.get('Content-Security-Policy')).toBe(CONTENT_SECURITY_POLICY)
}

/** The 404 page of the web app (not the API's JSON), with the message it gives. */
export async function expectNotFoundPage(page: WebPage, message?: RegExp) {
  expectPage(page, 404)
  expect((await selectOne(page.html, 'main h1')).text).toBe('Page not found')
  if (message) expect((await selectOne(page.html, '#message')).text).toMatch(message)
}

/** The 403 page of a form without its CSRF token (or from another site). */
export async function expectRefused(page: WebPage) {
  expectPage(page, 403)
  expect((await selectOne(page.html, 'h1')).text).toBe('This form was refused')
}

/** The texts of the form's own errors (#form-errors). */
export async function formErrors(page: WebPage) {
  return (await select(page.html, '#form-errors p, #form-errors li')).map((e) => e.text)
}

/** The notice a redirect's page shows (#notice), or undefined. */
export async function noticeOf(page: WebPage) {
  const found = await select(page.html, '#notice')
  return found[0]?.text
}

// Where a page may send the browser after a sign-in: a path of the web app, never another site.

export const APP_HOME = '/app/'

const BASE = 'http://app.invalid'

/**
 * `next` as a path under /app (with its query), or the app's home. A full URL, a protocol-relative
 * `//host`, a backslash (which browsers read as a slash) or anything outside /app is refused:
 * an open redirect would lend this site's name to whoever wrote the link.
 */
export function safeNext(next: string | undefined | null): string {
  if (!next || next.length > 512 || !next.startsWith('/') || /[\\\s]/.test(next)) return APP_HOME
  if (next.startsWith('//')) return APP_HOME
  let url: URL
  try {
    url = new URL(next, BASE)
  } catch {
    return APP_HOME
  }
  if (url.origin !== BASE) return APP_HOME
  if (url.pathname !== '/app' && !url.pathname.startsWith('/app/')) return APP_HOME
  // Pages of signing in lead back to the app, never round in a circle.
  if (/^\/app\/(signin|signup|signout)\b/.test(url.pathname)) return APP_HOME
  return url.pathname + url.search
}

/** The sign-in page that sends the browser on to `next` afterwards. */
export function signInPath(next?: string): string {
  const target = safeNext(next)
  return target === APP_HOME
    ? '/app/signin'
    : `/app/signin?${new URLSearchParams({ next: target })}`
}

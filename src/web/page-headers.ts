// The headers of every page: a Content-Security-Policy that allows this origin's files only.

// No inline script or style anywhere, so 'self' is the whole policy; data: only for the icon.
// worker-src: the push service worker, /sw.js (named, not left to script-src's fallback).
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ')

export const PAGE_HEADERS = { 'Content-Security-Policy': CONTENT_SECURITY_POLICY }

/** An error page answers this request only; the next one may be right. */
export const ERROR_PAGE_HEADERS = { ...PAGE_HEADERS, 'Cache-Control': 'no-store' }

/** Pages of the web app (/app): they show who is signed in and carry CSRF tokens; never stored. */
export const PRIVATE_PAGE_HEADERS = { ...PAGE_HEADERS, 'Cache-Control': 'no-store' }

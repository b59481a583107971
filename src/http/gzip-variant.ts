// The gzip twin of a cached public answer: compressed once when the answer is kept in memory, then
// handed as is to every client that asks for gzip, as browsers and calendar apps do. Left to the
// runtime (workerd, Deno.serve), the same 200 KB page was compressed again on every request.
import { parseAccept } from 'hono/utils/accept'

// Below this the header and the gzip frame eat most of the saving.
const MIN_BYTES = 1024

/** Text, JSON and calendars compress well; anything else is served as it is. */
export function worthGzip(contentType: string | null, bytes: number): boolean {
  if (bytes < MIN_BYTES || !contentType) return false
  const type = contentType.split(';')[0].trim().toLowerCase()
  return type.startsWith('text/') || type === 'application/json' || type.endsWith('+json')
}

export async function gzip(body: ArrayBuffer): Promise<ArrayBuffer> {
  const stream = new Response(body).body!.pipeThrough(new CompressionStream('gzip'))
  return new Response(stream).arrayBuffer()
}

/**
 * Whether the client takes gzip: named in its Accept-Encoding with a non-zero q. On Workers the
 * request's header is the runtime's "br, gzip" even when the client sent none (curl without
 * --compressed), and gzip bytes would reach it as they are. The client's own header is in
 * `cf.clientAcceptEncoding`, there only when Cloudflare changed it, as it does a browser's; a
 * client it is missing for gets the plain bytes, which the runtime compresses as before if it may.
 */
export function acceptsGzip(request: Request): boolean {
  const cf = request.cf as { clientAcceptEncoding?: string } | undefined
  const header = cf ? cf.clientAcceptEncoding : request.headers.get('Accept-Encoding')
  return parseAccept(header ?? '').some((a) => a.type.toLowerCase() === 'gzip' && a.q > 0)
}

/** The twin's ETag: a strong ETag names one representation, and the gzip bytes are another. */
export const gzipEtag = (etag: string) => etag.replace(/"$/, '-gzip"')

/**
 * A response of bytes that are already gzip. `encodeBody: 'manual'` tells workerd they are encoded,
 * so it sends them rather than compressing them again; Deno.serve leaves a Content-Encoding alone.
 */
export function gzipResponse(body: ArrayBuffer, headers: Headers): Response {
  headers.set('Content-Encoding', 'gzip')
  // A stored Content-Length is the plain body's; the runtime counts these bytes itself.
  headers.delete('Content-Length')
  const init: ResponseInit & { encodeBody?: 'manual' } = { status: 200, headers }
  init.encodeBody = 'manual'
  return new Response(body, init)
}

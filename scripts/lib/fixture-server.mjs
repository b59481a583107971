// Serves the recorded platform payloads (test/fixtures) on loopback, at the paths the adapters call,
// with every time moved forward by whole weeks so that a seed made later still has upcoming contests.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const WEEK_MS = 7 * 86_400_000
/** When the fixtures were recorded (test/helpers/platforms.ts says the same). */
export const RECORDED_AT = Date.UTC(2026, 10, 22, 12, 0, 0)

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/

function shiftIso(text, shiftMs) {
  const offset = text.match(/(Z|[+-]\d\d:?\d\d)$/)[1]
  const shifted = new Date(Date.parse(text) + shiftMs)
  if (offset === 'Z') return shifted.toISOString()
  // Keep the platform's own offset, as it writes it.
  const sign = offset[0] === '-' ? -1 : 1
  const minutes = sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(-2)))
  const local = new Date(shifted.getTime() + minutes * 60_000).toISOString().slice(0, 19)
  return `${local}${offset}`
}

/** Shifts epoch-second fields (startTime, startTimeSeconds) and ISO strings anywhere in the JSON. */
function shiftJson(value, shiftMs, key = '') {
  if (Array.isArray(value)) return value.map((v) => shiftJson(v, shiftMs))
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shiftJson(v, shiftMs, k)]))
  }
  if (typeof value === 'number' && /^startTime(Seconds)?$/.test(key)) return value + shiftMs / 1000
  if (typeof value === 'string' && ISO.test(value)) return shiftIso(value, shiftMs)
  return value
}

/** AtCoder writes times as `2026-11-29 21:00:00+0900` inside <time> elements. */
function shiftAtcoderHtml(html, shiftMs) {
  return html.replace(/(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)([+-]\d{4})/g, (_, d, t, off) => {
    const iso = shiftIso(`${d}T${t}${off.slice(0, 3)}:${off.slice(3)}`, shiftMs)
    return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${off}`
  })
}

export function startFixtureServer(now = Date.now(), dir = 'test/fixtures') {
  const shiftMs = Math.round((now - RECORDED_AT) / WEEK_MS) * WEEK_MS
  const json = (file) =>
    JSON.stringify(shiftJson(JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')), shiftMs))
  const routes = {
    '/codeforces/api/contest.list': [
      'application/json',
      () => json('codeforces-contest-list.json'),
    ],
    '/leetcode/graphql': ['application/json', () => json('leetcode-graphql.json')],
    '/codechef/api/list/contests/all': [
      'application/json',
      () => json('codechef-contests-all.json'),
    ],
    '/atcoder/contests': [
      'text/html; charset=utf-8',
      () => shiftAtcoderHtml(readFileSync(`${dir}/atcoder-contests.html`, 'utf8'), shiftMs),
    ],
  }
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fixtures').pathname.replace(/\/$/, '')
    const route = routes[path]
    req.resume()
    if (!route) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': route[0] }).end(route[1]())
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${server.address().port}`, shiftMs }),
    ),
  )
}

// Serves every platform's recorded answers (src/platforms/<id>/fixtures) on loopback, at the paths
// their sources call, with every time moved forward by whole weeks so that a seed made later still
// has upcoming contests. The routes and the shifts come from the platform registry itself.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { importTypeScript } from './import-typescript.mjs'

const WEEK_MS = 7 * 86_400_000

export async function startFixtureServer(now = Date.now()) {
  const { RECORDED_AT, answerAliasedQuery, matchStandInRoute, standInRoutes, standInUpstreams } =
    await importTypeScript('src/platforms/stand-in-routes.ts')
  const shiftMs = Math.round((now - RECORDED_AT) / WEEK_MS) * WEEK_MS
  const routes = standInRoutes()
  const server = createServer(async (req, res) => {
    // The body too: GraphQL answers (LeetCode's) are told apart by the query posted.
    const chunks = []
    for await (const chunk of req) chunks.push(chunk)
    const body = Buffer.concat(chunks).toString('utf8')
    const url = new URL(req.url ?? '/', 'http://fixtures')
    const route = matchStandInRoute(routes, req.method, url, body)
    // An aliased GraphQL query (LeetCode's batched histories) is answered field by field, each
    // from the recorded answer of the single query that field is (graphql-aliases.ts).
    if (!route?.body && req.method === 'POST') {
      const aliased = answerAliasedQuery(body, (single) => {
        const one = matchStandInRoute(routes, req.method, url, JSON.stringify(single))
        return one && { status: 200, body: one.shift(readFileSync(one.filePath, 'utf8'), shiftMs) }
      })
      if (aliased) {
        const text = typeof aliased.body === 'string' ? aliased.body : JSON.stringify(aliased.body)
        res.writeHead(aliased.status, { 'content-type': 'application/json' }).end(text)
        return
      }
    }
    if (!route) {
      res.writeHead(404).end()
      return
    }
    const text = route.shift(readFileSync(route.filePath, 'utf8'), shiftMs)
    res.writeHead(200, { 'content-type': route.contentType }).end(text)
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${server.address().port}`
      // Every platform's upstream var, pointed here.
      resolve({ server, url, shiftMs, upstreams: standInUpstreams(url) })
    }),
  )
}

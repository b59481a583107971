// A loopback HTTP stand-in for everything outside Cloudflare that speaks plain HTTP (Resend,
// WhatsApp Cloud API, Web Push services, Discord's and Slack's webhooks, the contest platforms, Google's sign-in). It answers like the real service,
// records every request, and can be scripted by tests through its /__control endpoints.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { randomUUID } from 'node:crypto'
import { answerAliasedQuery, type StandInAnswer } from '../../src/platforms/graphql-aliases.ts'
import { createClistStandIn, type ClistSettings } from './clist.ts'
import { createDiscordApiStandIn } from './discord-api.ts'
import type { GoogleProfile } from './google-client.ts'
import { createGoogleStandIn } from './google.ts'
import { createResendStandIn } from './resend.ts'
import { keyedDraw } from './seeded-random.ts'
import { slackResponse } from './slack.ts'
import { createTelegramApiStandIn } from './telegram-api.ts'

export interface RecordedRequest {
  method: string
  path: string
  headers: Record<string, string>
  body: string
  at: number
  /** The status the stand-in answered with. */
  status?: number
  /** The body it answered with (a Bot API result's message_id, say). */
  answer?: unknown
}

export interface ScriptedResponse {
  status: number
  body?: unknown
  headers?: Record<string, string>
  /** Answers only after this long: a slow or stalled upstream. */
  delayMs?: number
}

/**
 * A rule answers requests whose method and path prefix match, in order; the last one repeats.
 * With no responses the service's own answer is given, so `failRate` alone scripts an outage of
 * an otherwise real-looking service (e.g. Resend's batch answers with their ids).
 */
interface Rule {
  method?: string
  pathPrefix: string
  /** Query parameters the request must carry (others are ignored), to tell pages apart. */
  query?: Record<string, string>
  /**
   * JSON fields the request's body must hold (others are ignored), nested objects field by field:
   * a GraphQL endpoint (LeetCode's) answers every query on one path, told apart by operationName
   * and variables.
   */
  body?: Record<string, unknown>
  responses: ScriptedResponse[]
  /** When set, each request fails with `failure` with this probability instead. */
  failRate?: number
  failure?: ScriptedResponse
  /** Draws failRate's chances from this seed (seeded-random.ts) instead of Math.random. */
  seed?: number
  /**
   * With a seed: markers (text of a request's path or body) and the names they stand for. A
   * request's draw then depends only on the names it carries and how many requests with the same
   * names came before it, not on the order requests race in, so a seed replays a run. Without,
   * the draws are taken in the order requests arrive.
   */
  labels?: Record<string, string>
  /** Requests seen per set of names (the stand-in's own count). */
  seen?: Record<string, number>
}

/** Whether the rule's failRate fails this request. */
function scriptedFailure(rule: Rule, path: string, body: string): boolean {
  if (!rule.failRate) return false
  if (rule.seed === undefined) return Math.random() < rule.failRate
  const text = `${path}\n${body}`
  const names = Object.entries(rule.labels ?? {})
    .filter(([marker]) => text.includes(marker))
    .map(([, name]) => name)
  const identity = [...new Set(names)].sort().join(',')
  rule.seen ??= {}
  const n = (rule.seen[identity] ?? 0) + 1
  rule.seen[identity] = n
  return keyedDraw(rule.seed, `${rule.pathPrefix}|${identity}`, n) < rule.failRate
}

/** What the real services answer when nothing is scripted. */
function defaultResponse(method: string, path: string, body: string): ScriptedResponse {
  if (method === 'POST' && /\/messages$/.test(path)) {
    const to = safeJson<{ to?: string }>(body)?.to ?? ''
    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        contacts: [{ input: to, wa_id: to.replace(/\D/g, '') }],
        messages: [{ id: `wamid.${randomUUID().replace(/-/g, '')}` }],
      },
    }
  }
  if (method === 'POST' && path.startsWith('/push/')) return { status: 201 }
  return { status: 404, body: { error: `stand-in has nothing at ${method} ${path}` } }
}

/** Whether `value` holds every field of `wanted`, nested objects field by field. */
function holdsJson(value: unknown, wanted: unknown): boolean {
  if (wanted === null || typeof wanted !== 'object') return value === wanted
  if (value === null || typeof value !== 'object') return false
  const fields = value as Record<string, unknown>
  return Object.entries(wanted).every(([k, v]) => holdsJson(fields[k], v))
}

function safeJson<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T
  } catch {
    return undefined
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** What one user of the stand-in sees: its recorded requests, its script, its services' state. */
interface Space {
  requests: RecordedRequest[]
  rules: Rule[]
  google: ReturnType<typeof createGoogleStandIn>
  resend: ReturnType<typeof createResendStandIn>
  clist: ReturnType<typeof createClistStandIn>
  discordApi: ReturnType<typeof createDiscordApiStandIn>
  telegramApi: ReturnType<typeof createTelegramApiStandIn>
  /** Messages Discord webhooks made, by `<webhook id>/<message id>`. */
  webhookMessages: Map<string, Record<string, unknown>>
}

const newSpace = (): Space => ({
  requests: [],
  rules: [],
  google: createGoogleStandIn(),
  resend: createResendStandIn(),
  clist: createClistStandIn(),
  discordApi: createDiscordApiStandIn(),
  telegramApi: createTelegramApiStandIn(),
  webhookMessages: new Map(),
})

/**
 * `/w/<key>/rest` is `rest` in the space named `key`; any other path is in the default space. Test
 * files running at once each call through their own key (vitest.config.ts), so one file's scripted
 * outage, recorded requests or Resend emails are never another's.
 */
export function spaceOf(rawUrl: string): { key: string; url: URL } {
  const url = new URL(rawUrl, 'http://stand-in')
  const match = /^\/w\/([\w-]{1,64})(\/.*)$/.exec(url.pathname)
  if (!match) return { key: '', url }
  return { key: match[1], url: new URL(`${match[2]}${url.search}`, 'http://stand-in') }
}

export function startProviderStandIn(port = 0): Promise<{ server: Server; url: string }> {
  const spaces = new Map<string, Space>()

  const server = createServer(async (req, res) => {
    const { key, url } = spaceOf(req.url ?? '/')
    let space = spaces.get(key)
    if (!space) spaces.set(key, (space = newSpace()))
    const { google, resend, clist, discordApi, telegramApi } = space
    const body = await readBody(req)
    let recorded: RecordedRequest | undefined
    const send = (r: ScriptedResponse) => {
      if (recorded) {
        recorded.status = r.status
        recorded.answer = r.body
      }
      const isText = typeof r.body === 'string'
      res.writeHead(r.status, {
        'content-type': isText ? 'text/html; charset=utf-8' : 'application/json',
        ...r.headers,
      })
      res.end(r.body === undefined ? '' : isText ? (r.body as string) : JSON.stringify(r.body))
    }

    if (url.pathname.startsWith('/__control/')) {
      const action = url.pathname.slice('/__control/'.length)
      if (action === 'reset') {
        space.requests = []
        space.rules = []
        google.reset()
        resend.reset()
        clist.reset()
        discordApi.reset()
        telegramApi.reset()
        space.webhookMessages.clear()
        return send({ status: 200, body: { ok: true } })
      }
      if (action === 'script') {
        space.rules.unshift(JSON.parse(body) as Rule)
        return send({ status: 200, body: { ok: true } })
      }
      if (action === 'google') {
        google.script(JSON.parse(body) as GoogleProfile)
        return send({ status: 200, body: { ok: true } })
      }
      if (action === 'clist') {
        clist.configure(JSON.parse(body) as ClistSettings)
        return send({ status: 200, body: { ok: true } })
      }
      if (action === 'emails') return send({ status: 200, body: resend.accepted() })
      if (action === 'requests') {
        const prefix = url.searchParams.get('pathPrefix') ?? '/'
        return send({
          status: 200,
          body: space.requests.filter((r) => r.path.startsWith(prefix)),
        })
      }
      return send({ status: 404, body: { error: 'unknown control action' } })
    }

    const path = url.pathname + url.search
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
    )
    recorded = { method: req.method ?? 'GET', path, headers, body, at: Date.now() }
    space.requests.push(recorded)

    const ruleFor = (text: string) =>
      space.rules.find(
        (r) =>
          (!r.method || r.method === req.method) &&
          url.pathname.startsWith(r.pathPrefix) &&
          Object.entries(r.query ?? {}).every(([k, v]) => url.searchParams.get(k) === v) &&
          (!r.body || holdsJson(safeJson(text), r.body)),
      )
    const nextResponse = (r: Rule) =>
      r.responses.length > 1 ? r.responses.shift()! : r.responses[0]
    const rule = ruleFor(body)
    // An aliased GraphQL query (LeetCode's batched histories) that no rule answers by its own
    // body is answered field by field, each field as the single query it is through the rules
    // (graphql-aliases.ts): the answers scripted for one handle answer it inside a batch too.
    if (!rule?.body && req.method === 'POST') {
      const aliased = answerAliasedQuery(body, (single): StandInAnswer | undefined => {
        const text = JSON.stringify(single)
        const one = ruleFor(text)
        if (!one) return undefined
        if (scriptedFailure(one, path, text)) {
          return one.failure ?? { status: 503, body: { error: 'scripted failure' } }
        }
        return one.responses.length > 0 ? nextResponse(one) : undefined
      })
      if (aliased) return send(aliased)
    }
    if (rule && scriptedFailure(rule, path, body)) {
      return send(rule.failure ?? { status: 503, body: { error: 'scripted failure' } })
    }
    if (rule && rule.responses.length > 0) {
      const response = nextResponse(rule)
      if (response.delayMs) await new Promise((resolve) => setTimeout(resolve, response.delayMs))
      return send(response)
    }
    const method = req.method ?? 'GET'
    if (url.pathname.startsWith('/discord/api/v10/')) {
      const answer = discordApi.respond(method, url.pathname, headers, body)
      if (answer) return send(answer)
    }
    if (url.pathname.startsWith('/discord/')) {
      return send(discordResponse(req, url, body, space.webhookMessages))
    }
    if (method === 'POST' && url.pathname.startsWith('/telegram/bot')) {
      return send(telegramApi.respond(url.pathname, body))
    }
    if (url.pathname.startsWith('/slack/')) return send(slackResponse(method, url.pathname, body))
    if (url.pathname.startsWith('/clist/')) return send(clist.respond(method, url, headers))
    if (url.pathname.startsWith('/google/')) {
      return send(await google.respond(method, url, headers, body))
    }
    send(
      resend.respond(method, url.pathname, headers, body) ??
        defaultResponse(method, url.pathname, body),
    )
  })

  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const address = server.address()
      const actualPort = typeof address === 'object' && address ? address.port : port
      resolve({ server, url: `http://127.0.0.1:${actualPort}` })
    })
  })
}

let discordMessageId = 1_300_000_000_000_000_000n

/**
 * Discord's execute webhook (POST /discord/api/webhooks/:id/:token): the message it made when
 * `wait=true`, else 204; an empty body is refused as Discord refuses it (50006). A message it made
 * is edited with PATCH .../messages/:message (Unknown Message, 10008, for one it never made).
 */
function discordResponse(
  req: IncomingMessage,
  url: URL,
  body: string,
  made: Map<string, Record<string, unknown>>,
): ScriptedResponse {
  const edit = /^\/discord\/api\/webhooks\/(\d+)\/[\w-]+\/messages\/(\d+)$/.exec(url.pathname)
  if (edit && req.method === 'PATCH') {
    const found = made.get(`${edit[1]}/${edit[2]}`)
    if (!found) return { status: 404, body: { message: 'Unknown Message', code: 10008 } }
    const changed = {
      ...found,
      ...safeJson<Record<string, unknown>>(body),
      id: found.id,
      edited_timestamp: new Date().toISOString(),
    }
    made.set(`${edit[1]}/${edit[2]}`, changed)
    return { status: 200, body: changed }
  }
  const match = /^\/discord\/api\/webhooks\/(\d+)\/[\w-]+$/.exec(url.pathname)
  if (req.method !== 'POST' || !match) {
    return { status: 404, body: { message: '404: Not Found', code: 0 } }
  }
  const message = safeJson<{ content?: string; embeds?: unknown[] }>(body)
  if (!message?.content && !message?.embeds?.length) {
    return { status: 400, body: { message: 'Cannot send an empty message', code: 50006 } }
  }
  if (url.searchParams.get('wait') !== 'true') return { status: 204 }
  const result = {
    id: String(++discordMessageId),
    type: 0,
    content: message.content ?? '',
    channel_id: '1200000000000000000',
    author: { id: match[1], username: 'Contest Alerts', bot: true },
    embeds: message.embeds ?? [],
    webhook_id: match[1],
    timestamp: new Date().toISOString(),
  }
  made.set(`${match[1]}/${result.id}`, result)
  return { status: 200, body: result }
}

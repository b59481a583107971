/// <reference types="vite/client" />
// Serves each platform's recorded answers (src/platforms/<id>/fixtures) from the stand-in at the
// paths its source calls, or whatever a test scripts in their place.
import { env } from 'cloudflare:test'
import type { Env } from '../../src/env.ts'
import { RECORDED_AT } from '../../src/platforms/fixture-time.ts'
import { PLATFORM_MODULES, platformModule, type Platform } from '../../src/platforms/registry.ts'
import { standInPath } from '../../src/platforms/stand-in-routes.ts'
import type { SyncMessage } from '../../src/sync/queue.ts'
import { clearContests } from './contests.ts'
import { runQueue } from './queue.ts'
import { standIn } from './stand-in.ts'

export { RECORDED_AT }

// Bundled as text at build time: workerd reads no files.
const FILES = import.meta.glob('../../src/platforms/*/fixtures/**/*.{json,html}', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>

/** The platforms with a source of their own (the long tail comes from clist.by alone). */
export const SOURCED_PLATFORMS = PLATFORM_MODULES.filter((m) => m.source).map((m) => m.id)

/** The recorded text of one of `platform`'s fixture files ("fixtures/contest-list.json"). */
export function fixtureText(platform: Platform, file: string): string {
  const text = FILES[`../../src/platforms/${platform}/${file}`]
  if (text === undefined) throw new Error(`no fixture ${file} for ${platform}`)
  return text
}

const WEEK_MS = 7 * 86_400_000

/**
 * Makes every request of `platform`'s source answer with its recorded file, or with `body` and
 * `status` when given (a string is sent as it is, anything else as JSON). With `now`, the recorded
 * times move by whole weeks to it, for tests that sync at the clock's time.
 */
export async function servePlatform(
  platform: Platform,
  body?: unknown,
  status = 200,
  now = RECORDED_AT,
) {
  const shiftMs = Math.round((now - RECORDED_AT) / WEEK_MS) * WEEK_MS
  const source = platformModule(platform).source
  if (!source) throw new Error(`${platform} has no source of its own`)
  for (const route of source.fixtures) {
    const url = new URL(route.path, 'http://stand-in')
    await standIn.script({
      method: route.method,
      pathPrefix: `${standInPath(source.setting)}${url.pathname}`,
      query: Object.fromEntries(url.searchParams),
      responses: [
        {
          status,
          body: body === undefined ? route.shift(fixtureText(platform, route.file), shiftMs) : body,
          headers: { 'content-type': route.contentType },
        },
      ],
    })
  }
}

/**
 * Makes the stand-in answer with `platform`'s recorded results (its results module's fixtures,
 * under its source's base), times moved by whole weeks to `now`. A later rule is asked first and
 * rules match by path prefix, so longer paths are scripted last (a profile's path is a prefix of
 * its history's), and this is called after servePlatform (whose /contests/ would answer AtCoder's
 * results pages).
 */
export async function serveResults(platform: Platform, now = RECORDED_AT) {
  const shiftMs = Math.round((now - RECORDED_AT) / WEEK_MS) * WEEK_MS
  const module = platformModule(platform)
  if (!module.source || !module.results) throw new Error(`${platform} has no results of its own`)
  const routes = module.results.fixtures.map((route) => ({
    route,
    url: new URL(route.path, 'http://stand-in'),
  }))
  routes.sort((a, b) => a.url.pathname.length - b.url.pathname.length)
  for (const { route, url } of routes) {
    await standIn.script({
      method: route.method,
      pathPrefix: `${standInPath(module.source.setting)}${url.pathname}`,
      query: Object.fromEntries(url.searchParams),
      responses: [
        {
          status: 200,
          body: route.shift(fixtureText(platform, route.file), shiftMs),
          headers: { 'content-type': route.contentType },
        },
      ],
    })
  }
}

export async function serveAllPlatforms(now = RECORDED_AT) {
  for (const platform of SOURCED_PLATFORMS) await servePlatform(platform, undefined, 200, now)
}

/** A SYNC_QUEUE that keeps what the cron queues, for the test to hand to the consumer itself. */
export function capturingSyncQueue() {
  const sent: SyncMessage[] = []
  const queue = {
    async send(body: SyncMessage) {
      sent.push(body)
    },
    async sendBatch(messages: Iterable<{ body: SyncMessage }>) {
      for (const m of messages) sent.push(m.body)
    },
  } as unknown as Queue
  return { queue, sent }
}

/**
 * The real SYNC_QUEUE, with every message and the delay it was sent with recorded, and held back
 * 12 hours (the longest delay Queues accept), so that the test hands it to the consumer itself
 * rather than Miniflare, in the background, with the base settings.
 */
export function holdingSyncQueue() {
  const sent: { body: SyncMessage; delaySeconds?: number }[] = []
  const hold = 43_200
  const queue = {
    async send(body: SyncMessage, options?: QueueSendOptions) {
      sent.push({ body, delaySeconds: options?.delaySeconds })
      await env.SYNC_QUEUE.send(body, { delaySeconds: hold })
    },
    async sendBatch(messages: Iterable<MessageSendRequest<SyncMessage>>) {
      const list = [...messages]
      sent.push(...list.map((m) => ({ body: m.body, delaySeconds: m.delaySeconds })))
      await env.SYNC_QUEUE.sendBatch(list.map((m) => ({ ...m, delaySeconds: hold })))
    },
  } as unknown as Queue
  return { queue, sent }
}

/** Hands `bodies` to the Worker's own queue() as one batch of the sync queue. */
export function runSyncQueue(bodies: SyncMessage[], bindings: Partial<Env> = {}) {
  return runQueue(bodies, bindings, { queue: 'sync' })
}

/** A sync test's fresh start: no script on the stand-in, no contests, no runs, leases or states. */
export async function clearSyncState() {
  await standIn.reset()
  await clearContests()
  await env.DB.batch([
    env.DB.prepare('DELETE FROM sync_runs'),
    env.DB.prepare('DELETE FROM job_locks'),
    env.DB.prepare('DELETE FROM platform_status'),
  ])
}

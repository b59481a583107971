// Calls the real Worker entry inside workerd, optionally with bindings swapped or instrumented.
import {
  createExecutionContext,
  createScheduledController,
  env,
  waitOnExecutionContext,
} from 'cloudflare:test'
import worker from '../../src/index.ts'
import type { Env } from '../../src/env.ts'

export const BASE = 'https://api.test'

let files = 0
let fileAddress: string | undefined

/**
 * Gives the next test file an address of its own for requests that name none (setup.ts): files
 * share a workerd and so its limiter, and without one they would all count as one unknown client.
 */
export function nextFileAddress() {
  files++
  fileAddress = `198.18.${(files >> 8) & 255}.${files & 255}`
}

export async function call(
  path: string,
  init: RequestInit = {},
  bindings: Partial<Env> = {},
): Promise<Response> {
  const ctx = createExecutionContext()
  const request = new Request(`${BASE}${path}`, init)
  if (fileAddress && !request.headers.has('CF-Connecting-IP')) {
    request.headers.set('CF-Connecting-IP', fileAddress)
  }
  const response = await worker.fetch(request, { ...env, ...bindings }, ctx)
  // Cache writes and other background work finish before the test looks at state.
  await waitOnExecutionContext(ctx)
  return response
}

/** Fires the daily Cron Trigger (cleanup of expired notifications, accounts, jobs and the rest). */
export async function runDailyCleanup(at = Date.now()) {
  const ctx = createExecutionContext()
  await worker.scheduled(
    createScheduledController({ cron: '0 2 * * *', scheduledTime: at }),
    env,
    ctx,
  )
  await waitOnExecutionContext(ctx)
}

export async function getJson<T = any>(path: string, init: RequestInit = {}) {
  const res = await call(path, init)
  return { status: res.status, headers: res.headers, body: (await res.json()) as T }
}

/** A D1 binding that counts the statements it is asked to run, passing each to the real one. */
export function countingD1(d1: D1Database) {
  const counter = { statements: 0 }
  const wrapped = new Proxy(d1, {
    get(target, prop) {
      if (prop === 'prepare' || prop === 'exec') {
        return (...args: unknown[]) => {
          counter.statements++
          return (target[prop] as (...a: unknown[]) => unknown).apply(target, args)
        }
      }
      const value = Reflect.get(target, prop)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { d1: wrapped, counter }
}

// The one log shape: a JSON line `{level, event, requestId?, job?, ...fields}` written with the
// console method of its level, Errors readable rather than `{}`.
import { Hono } from 'hono'
import { requestId } from 'hono/request-id'
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'
import type { AppEnv } from '../src/app-env.ts'
import { renderError } from '../src/http/errors.ts'
import { log, type LogLevel } from '../src/lib/log.ts'

const LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error']

let spies: Record<LogLevel, MockInstance<(...args: unknown[]) => void>>

beforeEach(() => {
  spies = {
    debug: vi.spyOn(console, 'debug').mockImplementation(() => {}),
    info: vi.spyOn(console, 'info').mockImplementation(() => {}),
    warn: vi.spyOn(console, 'warn').mockImplementation(() => {}),
    error: vi.spyOn(console, 'error').mockImplementation(() => {}),
  }
})

afterEach(() => {
  vi.restoreAllMocks()
})

/** The lines written through `console[level]`, parsed; each call writes one string. */
function linesAt(level: LogLevel): Record<string, unknown>[] {
  return spies[level].mock.calls.map((args) => {
    expect(args).toHaveLength(1)
    return JSON.parse(String(args[0])) as Record<string, unknown>
  })
}

describe('log lines', () => {
  it.each(LEVELS)('writes a %s line with the console method of that level only', (level) => {
    log[level]('something-happened', { count: 2 })
    expect(linesAt(level)).toEqual([{ level, event: 'something-happened', count: 2 }])
    for (const other of LEVELS.filter((l) => l !== level)) {
      expect(spies[other]).not.toHaveBeenCalled()
    }
  })

  it('starts every line with level and event, then keeps the fields as given', () => {
    log.info('job-finished', { job: 'sync', durationMs: 12, counts: { created: 1, updated: 0 } })
    const line = String(spies.info.mock.calls[0]?.[0])
    expect(Object.keys(JSON.parse(line))).toEqual(['level', 'event', 'job', 'durationMs', 'counts'])
    expect(JSON.parse(line)).toEqual({
      level: 'info',
      event: 'job-finished',
      job: 'sync',
      durationMs: 12,
      counts: { created: 1, updated: 0 },
    })
  })

  it('writes a line without fields as level and event alone', () => {
    log.warn('nothing-else')
    expect(linesAt('warn')).toEqual([{ level: 'warn', event: 'nothing-else' }])
  })

  it('does not let a field replace the level or the event', () => {
    log.warn('real-event', { level: 'debug', event: 'other-event', detail: 'x' })
    expect(linesAt('warn')).toEqual([{ level: 'warn', event: 'real-event', detail: 'x' }])
  })

  it('leaves out fields that are undefined, such as a missing requestId', () => {
    log.error('request-failed', { requestId: undefined, status: undefined })
    expect(linesAt('error')).toEqual([{ level: 'error', event: 'request-failed' }])
  })
})

describe('errors in log fields', () => {
  it('writes an Error as its name and message, never as {}', () => {
    log.error('rate-limiter-failed', { error: new TypeError('counter unreachable') })
    expect(linesAt('error')).toEqual([
      { level: 'error', event: 'rate-limiter-failed', error: 'TypeError: counter unreachable' },
    ])
  })

  it('writes an Error nested in a field readably too', () => {
    log.warn('batch-failed', { failures: [{ id: 'a', error: new Error('timed out') }] })
    expect(linesAt('warn')[0]?.failures).toEqual([{ id: 'a', error: 'Error: timed out' }])
  })

  it('still writes the event when a field cannot be serialized', () => {
    const circular: Record<string, unknown> = {}
    circular.self = circular
    log.error('webhook-emit-failed', { circular, big: 1n })
    const [line] = linesAt('error')
    expect(line).toMatchObject({ level: 'error', event: 'webhook-emit-failed' })
    expect(line?.logFailed).toEqual(expect.any(String))
  })

  it('writes a bigint field as its digits', () => {
    log.info('counted', { rows: 12345678901234567890n })
    expect(linesAt('info')).toEqual([
      { level: 'info', event: 'counted', rows: '12345678901234567890' },
    ])
  })
})

describe('bound loggers', () => {
  it('carries requestId and job on every line, after level and event', () => {
    const jobLog = log.with({ job: 'sync' }).with({ requestId: 'req-1' })
    jobLog.warn('sync-items-skipped', { platform: 'codeforces', skipped: ['42: bad date'] })
    jobLog.info('job-finished', { durationMs: 5 })
    const [first] = spies.warn.mock.calls.map(([line]) => Object.keys(JSON.parse(String(line))))
    expect(first).toEqual(['level', 'event', 'job', 'requestId', 'platform', 'skipped'])
    expect(linesAt('warn')).toEqual([
      {
        level: 'warn',
        event: 'sync-items-skipped',
        job: 'sync',
        requestId: 'req-1',
        platform: 'codeforces',
        skipped: ['42: bad date'],
      },
    ])
    expect(linesAt('info')).toEqual([
      { level: 'info', event: 'job-finished', job: 'sync', requestId: 'req-1', durationMs: 5 },
    ])
  })

  it('leaves the logger it was bound from unchanged', () => {
    log.with({ job: 'cleanup' })
    log.info('plain')
    expect(linesAt('info')).toEqual([{ level: 'info', event: 'plain' }])
  })

  it('works when its methods are passed around detached', () => {
    const write = [log.with({ job: 'x' }).warn][0]!
    write('code-email-not-sent', { purpose: 'verify_email' })
    expect(linesAt('warn')).toEqual([
      { level: 'warn', event: 'code-email-not-sent', job: 'x', purpose: 'verify_email' },
    ])
  })
})

describe('the 500 error path', () => {
  it('logs request-failed with the requestId, the message and the stack', async () => {
    const app = new Hono<AppEnv>()
    app.use(requestId())
    app.onError(renderError)
    app.get('/boom', () => {
      throw new Error('database exploded')
    })
    const res = await app.request('/boom', { headers: { 'X-Request-Id': 'req-500' } })
    expect(res.status).toBe(500)
    const body = await res.text()
    expect(body).not.toContain('database exploded')
    const [line] = linesAt('error')
    expect(line).toMatchObject({
      level: 'error',
      event: 'request-failed',
      requestId: 'req-500',
      error: 'Error: database exploded',
    })
    expect(line?.stack).toEqual(expect.stringContaining('database exploded'))
  })
})

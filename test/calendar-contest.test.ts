// GET /contests/{id}/calendar.ics: one contest's event for "add to calendar", parsed by a real
// iCalendar parser, its errors in the API's shape, its caching and its OpenAPI entry, and a name
// whose line breaks cannot add lines to the file.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { contestUid } from '../src/calendar/contest-event.ts'
import { newId } from '../src/lib/ids.ts'
import { contentLines, fetchFeed } from './helpers/calendar.ts'
import { addContests, clearContests, contest } from './helpers/contests.ts'
import { api, createAdmin } from './helpers/users.ts'
import { call } from './helpers/worker.ts'

beforeEach(clearContests)

const fileOf = (id: string) => `/contests/${id}/calendar.ics`

describe('GET /contests/{id}/calendar.ics', () => {
  it('is the contest’s event, with the UID the feeds give it', async () => {
    const [row] = await addContests([
      contest(6, { name: 'Weekly Contest 401', platform: 'leetcode', type: 'WEEKLY' }),
      contest(8, { name: 'Another Round' }),
    ])
    const { name, events, res } = await fetchFeed(fileOf(row.id))

    expect(name).toBe('Weekly Contest 401')
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      uid: contestUid(row),
      summary: 'Weekly Contest 401',
      start: row.startTime - (row.startTime % 1000),
      end: row.endTime - (row.endTime % 1000),
      sequence: 0,
    })
    expect(events[0].uid).toBe(`leetcode-${row.platformId}@contest-alert-service`)
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=300, s-maxage=300')
  })

  it('stores an admin’s name with CR/LF on one line, so the file gains no injected line', async () => {
    const admin = await createAdmin()
    const hours = (n: number) => new Date(Date.now() + n * 3_600_000).toISOString()
    const created = await api('POST', '/contests', {
      token: admin.accessToken,
      body: {
        platformId: 'inject-1',
        name: 'Round 1\r\nSUMMARY:Injected\r\nBEGIN:VALARM\u2028\u0007',
        platform: 'codeforces',
        type: 'CF',
        startTime: hours(10),
        endTime: hours(12),
        description: 'First line\nSecond\u0000 line',
      },
    })
    expect(created.status).toBe(201)
    const stored = 'Round 1 SUMMARY:Injected BEGIN:VALARM'
    expect(created.body).toMatchObject({ name: stored, description: 'First line Second line' })

    const { text, name, events } = await fetchFeed(fileOf(created.body.id))
    expect(name).toBe(stored)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ summary: stored, alarms: [] })
    const lines = contentLines(text)
    expect(lines.filter((l) => l.startsWith('SUMMARY:'))).toEqual([`SUMMARY:${stored}`])
    expect(lines).not.toContain('BEGIN:VALARM')
  })

  it('escapes every property it writes, even of a name stored with line breaks', async () => {
    const [row] = await addContests([contest(6)])
    // Written past the catalogue's writes, as an older release may have stored it.
    await env.DB.prepare('UPDATE contests SET name = ? WHERE id = ?')
      .bind('Round, 2; \\ \r\nX-INJECTED:1\r\nBEGIN:VALARM\u0000', row.id)
      .run()
    const { text, events } = await fetchFeed(fileOf(row.id))
    const lines = contentLines(text)
    expect(lines.some((l) => l.startsWith('X-INJECTED'))).toBe(false)
    expect(lines).not.toContain('BEGIN:VALARM')
    // TEXT escaping (RFC 5545 3.3.11), which ical.js leaves in place for these two properties.
    expect(lines).toContain('NAME:Round\\, 2\\; \\\\ X-INJECTED:1 BEGIN:VALARM')
    expect(lines).toContain('X-WR-CALNAME:Round\\, 2\\; \\\\ X-INJECTED:1 BEGIN:VALARM')
    expect(events[0].summary).toBe('Round, 2; \\\nX-INJECTED:1\nBEGIN:VALARM')
  })

  it('answers 404 for an unknown id and 400 for a malformed one, in the error shape', async () => {
    const unknown = newId()
    const missing = await call(fileOf(unknown))
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({
      statusCode: 404,
      message: `Contest with ID ${unknown} not found`,
      error: 'Not Found',
    })
    const malformed = await call(fileOf('not-an-id'))
    expect(malformed.status).toBe(400)
    expect(await malformed.json()).toMatchObject({ message: ['Invalid contest ID format'] })
  })

  it('answers If-None-Match with 304', async () => {
    const [row] = await addContests([contest(4)])
    const first = await call(fileOf(row.id))
    const etag = first.headers.get('ETag')
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/)
    const again = await call(fileOf(row.id), { headers: { 'If-None-Match': etag! } })
    expect(again.status).toBe(304)
  })

  it('is declared in the OpenAPI document, and the page is not', async () => {
    const doc = await (await call('/openapi.json')).json<{ paths: Record<string, any> }>()
    const file = doc.paths['/contests/{id}/calendar.ics'].get
    expect(Object.keys(file.responses[200].content)).toEqual(['text/calendar'])
    expect(Object.keys(file.responses).sort()).toEqual(['200', '304', '400', '404'])
    expect(doc.paths['/']).toBeUndefined()
  })
})

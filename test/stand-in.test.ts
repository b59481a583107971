// The provider stand-in itself: it answers like the services it replaces and can be scripted.
import { beforeEach, describe, expect, it } from 'vitest'
import { standIn, standInUrl } from './helpers/stand-in.ts'

beforeEach(() => standIn.reset())

describe('provider stand-in', () => {
  it('answers a Resend send with an id and records the request', async () => {
    const res = await fetch(`${standInUrl}/resend/emails`, {
      method: 'POST',
      headers: { Authorization: 'Bearer re_test', 'Content-Type': 'application/json' },
      body: JSON.stringify({ to: ['a@example.test'], subject: 'Hi' }),
    })
    expect(res.status).toBe(200)
    expect((await res.json<{ id: string }>()).id).toMatch(/^[0-9a-f-]{36}$/)
    const [recorded] = await standIn.requests('/resend')
    expect(recorded.headers.authorization).toBe('Bearer re_test')
    expect(JSON.parse(recorded.body).subject).toBe('Hi')
  })

  it('plays scripted responses in order, repeating the last', async () => {
    await standIn.script({
      pathPrefix: '/codeforces/api/contest.list',
      responses: [{ status: 503 }, { status: 200, body: { status: 'OK', result: [] } }],
    })
    const url = `${standInUrl}/codeforces/api/contest.list?gym=false`
    expect((await fetch(url)).status).toBe(503)
    expect((await fetch(url)).status).toBe(200)
    expect(await (await fetch(url)).json()).toEqual({ status: 'OK', result: [] })
  })
})

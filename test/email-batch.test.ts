// Resend's batch endpoint from the email channel: many emails per call, one outcome per email
// (Resend's id, a refusal of that email alone, or a whole-call failure), idempotent replays,
// and the outbox and disabled paths.
import { env } from 'cloudflare:test'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { readBatchAnswer, sendEmailBatch } from '../src/channels/email/resend-batch.ts'
import { sendEmail, type EmailMessage } from '../src/channels/email/resend.ts'
import type { Env } from '../src/env.ts'
import { standIn } from './helpers/stand-in.ts'

beforeEach(() => standIn.reset())
// Test files share the stand-in: later files' helpers read every /resend/emails request.
afterAll(() => standIn.reset())

const BATCH = '/resend/emails/batch'
const RESEND: Env = { ...env, RESEND_API_KEY: 're_test_key' }
const OUTBOX: Env = { ...env, RESEND_API_KEY: '', DEV_OUTBOX: 'true' }
const DISABLED: Env = { ...env, RESEND_API_KEY: '', DEV_OUTBOX: 'false' }

function message(n: number, over: Partial<EmailMessage> = {}): EmailMessage {
  return {
    to: `user${n}@example.test`,
    subject: `Reminder ${n}`,
    html: `<p>Round ${n}</p>`,
    text: `Round ${n}`,
    replyTo: 'support@example.test',
    headers: { 'List-Unsubscribe': `<https://example.test/u/${n}>` },
    ...over,
  }
}

const messages = (count: number) => Array.from({ length: count }, (_, i) => message(i + 1))
const key = () => `batch/${crypto.randomUUID()}`

describe('sendEmailBatch with Resend', () => {
  it('send 3 emails in one call with an idempotency key and permissive validation', async () => {
    const idempotencyKey = key()
    const sent = await sendEmailBatch(RESEND, messages(3), { idempotencyKey })
    expect(sent).toMatchObject({ provider: 'resend', calls: 1 })
    const requests = await standIn.requests(BATCH)
    expect(requests).toHaveLength(1)
    const [request] = requests
    expect(request.method).toBe('POST')
    expect(request.headers).toMatchObject({
      authorization: 'Bearer re_test_key',
      'content-type': 'application/json',
      'idempotency-key': idempotencyKey,
      'x-batch-validation': 'permissive',
    })
    const body = JSON.parse(request.body)
    expect(body).toHaveLength(3)
    expect(body[0]).toEqual({
      from: 'Contest Alerts <alerts@contest-alert.dev>',
      to: ['user1@example.test'],
      subject: 'Reminder 1',
      html: '<p>Round 1</p>',
      text: 'Round 1',
      reply_to: 'support@example.test',
      headers: { 'List-Unsubscribe': '<https://example.test/u/1>' },
    })
  })

  it('give each email the id Resend created for it, in order', async () => {
    const sent = await sendEmailBatch(RESEND, messages(3), { idempotencyKey: key() })
    const created = await standIn.emails()
    expect(created.map((e) => e.to)).toEqual([
      ['user1@example.test'],
      ['user2@example.test'],
      ['user3@example.test'],
    ])
    expect(sent.results).toEqual(created.map((e) => ({ ok: true, provider: 'resend', id: e.id })))
  })

  it('fail only the email with an invalid address, permanently, and send the others', async () => {
    const batch = [message(1), message(2, { to: 'not-an-address' }), message(3)]
    const sent = await sendEmailBatch(RESEND, batch, { idempotencyKey: key() })
    const created = await standIn.emails()
    expect(created.map((e) => e.to)).toEqual([['user1@example.test'], ['user3@example.test']])
    expect(sent.calls).toBe(1)
    expect(sent.results[0]).toEqual({ ok: true, provider: 'resend', id: created[0].id })
    expect(sent.results[1]).toMatchObject({ ok: false, provider: 'resend', transient: false })
    expect(sent.results[1].error).toMatch(/^Resend refused this email: Invalid `to` field/)
    expect(sent.results[2]).toEqual({ ok: true, provider: 'resend', id: created[1].id })
  })

  it('fail only the email whose headers Resend refuses', async () => {
    const bad = message(2, { headers: { 'X-Count': 3 } as unknown as Record<string, string> })
    const sent = await sendEmailBatch(RESEND, [message(1), bad], { idempotencyKey: key() })
    expect(sent.results.map((r) => r.ok)).toEqual([true, false])
    expect(sent.results[1].error).toBe('Resend refused this email: Invalid `headers` field')
  })

  it('mark every email transient when Resend answers 503 or 429', async () => {
    for (const status of [503, 429]) {
      await standIn.script({
        method: 'POST',
        pathPrefix: BATCH,
        responses: [{ status, body: { statusCode: status, message: 'Try again later' } }],
      })
      const sent = await sendEmailBatch(RESEND, messages(3), { idempotencyKey: key() })
      expect(sent.calls).toBe(1)
      expect(sent.results).toEqual(
        messages(3).map(() => ({
          ok: false,
          provider: 'resend',
          transient: true,
          error: `Resend answered ${status}: Try again later`,
          said: status === 429 ? 'Resend asked to slow down' : 'the mail service is having trouble',
        })),
      )
    }
    expect(await standIn.emails()).toEqual([])
  })

  it('mark every email transient when Resend cannot be reached', async () => {
    // Port 9 (discard) has no listener on the loopback: the connection is refused at once.
    const down = { ...RESEND, RESEND_API_URL: 'http://127.0.0.1:9/resend' }
    const sent = await sendEmailBatch(down, messages(2), { idempotencyKey: key() })
    expect(sent.results).toHaveLength(2)
    for (const r of sent.results) {
      expect(r).toMatchObject({ ok: false, transient: true })
      expect(r.error).toMatch(/^Resend unreachable: /)
    }
  })

  it('fail every email permanently when Resend refuses the whole batch (422)', async () => {
    const refusal = {
      statusCode: 422,
      name: 'validation_error',
      message: 'emails[1]: Invalid `to` field.',
    }
    await standIn.script({
      method: 'POST',
      pathPrefix: BATCH,
      responses: [{ status: 422, body: refusal }],
    })
    const sent = await sendEmailBatch(RESEND, messages(3), { idempotencyKey: key() })
    expect(sent.results).toEqual(
      messages(3).map(() => ({
        ok: false,
        provider: 'resend',
        transient: false,
        error: 'Resend answered 422: emails[1]: Invalid `to` field.',
        said: 'the mail service refused the batch this email was in',
        code: 'validation_error',
      })),
    )
  })

  it('send nothing twice when the same batch is sent again under its key', async () => {
    const idempotencyKey = key()
    const first = await sendEmailBatch(RESEND, messages(3), { idempotencyKey })
    const again = await sendEmailBatch(RESEND, messages(3), { idempotencyKey })
    expect(again.results).toEqual(first.results)
    expect(new Set(again.results.map((r) => r.id)).size).toBe(3)
    // Both calls reached Resend; only the first created emails.
    expect(await standIn.requests(BATCH)).toHaveLength(2)
    expect(await standIn.emails()).toHaveLength(3)
  })

  it('fail every email permanently when the key was used for other emails', async () => {
    const idempotencyKey = key()
    await sendEmailBatch(RESEND, messages(2), { idempotencyKey })
    const other = await sendEmailBatch(RESEND, [message(7), message(8)], { idempotencyKey })
    for (const r of other.results) {
      expect(r).toMatchObject({ ok: false, transient: false })
      expect(r.error).toMatch(/^Resend answered 409: /)
    }
    expect(await standIn.emails()).toHaveLength(2)
  })

  it('retry later when a request with the same key is still in progress', async () => {
    await standIn.script({
      method: 'POST',
      pathPrefix: BATCH,
      responses: [
        {
          status: 409,
          body: {
            statusCode: 409,
            name: 'concurrent_idempotent_requests',
            message: 'Same idempotency key used while original request is still in progress.',
          },
        },
      ],
    })
    const sent = await sendEmailBatch(RESEND, messages(2), { idempotencyKey: key() })
    for (const r of sent.results) expect(r).toMatchObject({ ok: false, transient: true })
  })

  it('split more than 100 emails into calls of 100, each under its own derived key', async () => {
    const idempotencyKey = key()
    const sent = await sendEmailBatch(RESEND, messages(150), { idempotencyKey })
    expect(sent.calls).toBe(2)
    const requests = await standIn.requests(BATCH)
    expect(requests.map((r) => r.headers['idempotency-key'])).toEqual([
      `${idempotencyKey}/0`,
      `${idempotencyKey}/1`,
    ])
    expect(requests.map((r) => JSON.parse(r.body).length)).toEqual([100, 50])
    const created = await standIn.emails()
    expect(sent.results.map((r) => r.id)).toEqual(created.map((e) => e.id))
    expect(created[149].to).toEqual(['user150@example.test'])
  })

  it('make no call for no emails', async () => {
    const sent = await sendEmailBatch(RESEND, [], { idempotencyKey: key() })
    expect(sent).toEqual({ provider: 'resend', results: [], calls: 0 })
    expect(await standIn.requests(BATCH)).toEqual([])
  })

  it('refuse an empty idempotency key as a programming error', async () => {
    await expect(sendEmailBatch(RESEND, messages(1), { idempotencyKey: '' })).rejects.toThrow(
      RangeError,
    )
    expect(await standIn.requests(BATCH)).toEqual([])
  })
})

describe('reading a batch answer', () => {
  it('pair ids with the emails not in errors, in request order', () => {
    const answer = { data: [{ id: 'a' }, { id: 'c' }], errors: [{ index: 1, message: 'bad' }] }
    expect(readBatchAnswer(answer, 3)).toEqual([
      { ok: true, provider: 'resend', id: 'a' },
      { ok: false, provider: 'resend', transient: false, error: 'Resend refused this email: bad' },
      { ok: true, provider: 'resend', id: 'c' },
    ])
  })

  it('count the emails as sent but guess no ids when data and errors do not add up', () => {
    const results = readBatchAnswer({ data: [{ id: 'a' }] }, 2)
    expect(results).toEqual([
      { ok: true, provider: 'resend' },
      { ok: true, provider: 'resend' },
    ])
  })
})

describe('sendEmailBatch without Resend', () => {
  it('write one outbox record per email under DEV_OUTBOX', async () => {
    const sent = await sendEmailBatch(OUTBOX, messages(3), { idempotencyKey: key() })
    expect(sent).toMatchObject({ provider: 'outbox', calls: 0 })
    expect(sent.results).toHaveLength(3)
    const { keys } = await env.KV.list({ prefix: 'dev-outbox:' })
    for (const [i, result] of sent.results.entries()) {
      expect(result).toEqual({ ok: true, provider: 'outbox', id: expect.any(String) })
      const name = keys.find((k) => k.name.endsWith(result.id!))!.name
      const record = await env.KV.get<Record<string, unknown>>(name, 'json')
      expect(record).toMatchObject({
        channel: 'email',
        from: 'Contest Alerts <alerts@contest-alert.dev>',
        to: `user${i + 1}@example.test`,
        subject: `Reminder ${i + 1}`,
      })
    }
    expect(await standIn.requests('/resend')).toEqual([])
  })

  it('fail every email for good, as a single send does, when the channel is disabled', async () => {
    const single = await sendEmail(DISABLED, message(1))
    const sent = await sendEmailBatch(DISABLED, messages(2), { idempotencyKey: key() })
    expect(sent).toEqual({ provider: 'none', results: [single, single], calls: 0 })
    expect(single).toMatchObject({ ok: false, transient: false, provider: 'none' })
    expect(await standIn.requests('/resend')).toEqual([])
  })
})

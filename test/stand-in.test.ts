// The provider stand-in itself: it answers like the services it replaces and can be scripted.
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { standIn, standInUrl } from './helpers/stand-in.ts'

beforeEach(() => standIn.reset())
// Test files share the stand-in: later files' helpers read every /resend/emails request.
afterAll(() => standIn.reset())

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

  it('tells rules on one path apart by the JSON fields of the body they require', async () => {
    const graphql = `${standInUrl}/leetcode-api/graphql`
    for (const [operationName, answer] of [
      ['userPublicProfile', 'profile'],
      ['userContestRankingHistory', 'history'],
    ]) {
      await standIn.script({
        method: 'POST',
        pathPrefix: '/leetcode-api/graphql',
        body: { operationName, variables: { username: 'quiet_fox' } },
        responses: [{ status: 200, body: { answer } }],
      })
    }
    const post = async (body: unknown) => {
      const res = await fetch(graphql, { method: 'POST', body: JSON.stringify(body) })
      return res.status === 200 ? (await res.json<{ answer: string }>()).answer : res.status
    }
    const variables = { username: 'quiet_fox', limit: 20 }
    expect(await post({ operationName: 'userPublicProfile', query: '{}', variables })).toBe(
      'profile',
    )
    expect(await post({ operationName: 'userContestRankingHistory', variables })).toBe('history')
    expect(await post({ operationName: 'userPublicProfile', variables: { username: 'x' } })).toBe(
      404,
    )
  })

  it('answers an aliased GraphQL query field by field through the rules, as a server puts a batch together', async () => {
    const graphql = `${standInUrl}/leetcode-api/graphql`
    const one = (username: string, responses: { status: number; body: unknown }[]) =>
      standIn.script({
        method: 'POST',
        pathPrefix: '/leetcode-api/graphql',
        body: { operationName: 'userContestRankingHistory', variables: { username } },
        responses,
      })
    await one('quiet_fox', [
      { status: 200, body: { data: { userContestRankingHistory: [] } } },
      { status: 429, body: 'slow down' },
    ])
    await one('nobody-here', [
      {
        status: 200,
        body: {
          errors: [{ message: 'That user does not exist.', path: ['userContestRankingHistory'] }],
          data: { userContestRankingHistory: null },
        },
      },
    ])
    // Comments, commas and a literal argument, as any GraphQL client may write them.
    const query = `query batch($a: String!) {
  # the first
  x: userContestRankingHistory(username: $a) { attended }, y: userContestRankingHistory(username: "nobody-here") { attended }
}`
    const post = async (variables: unknown) => {
      const res = await fetch(graphql, {
        method: 'POST',
        body: JSON.stringify({ query, variables }),
      })
      return { status: res.status, body: await res.text() }
    }
    const first = await post({ a: 'quiet_fox' })
    expect(first.status).toBe(200)
    expect(JSON.parse(first.body)).toEqual({
      errors: [
        {
          message: 'That user does not exist.',
          locations: [{ line: 3, column: 60 }],
          path: ['y'],
        },
      ],
      data: { x: [], y: null },
    })
    // The next answer of quiet_fox's rule is a 429: a limit answers the whole request.
    expect(await post({ a: 'quiet_fox' })).toEqual({ status: 429, body: 'slow down' })
    expect((await post({})).status).toBe(400)
    // A rule for the batch's own body answers it whole.
    await standIn.script({
      method: 'POST',
      pathPrefix: '/leetcode-api/graphql',
      body: { query },
      responses: [{ status: 200, body: { data: { whole: true } } }],
    })
    expect(JSON.parse((await post({ a: 'quiet_fox' })).body)).toEqual({ data: { whole: true } })
  })

  it('answers as the service under a rule with no responses, failing at its rate', async () => {
    await standIn.script({
      method: 'POST',
      pathPrefix: '/resend/emails/batch',
      responses: [],
      failRate: 1,
    })
    expect((await postBatch([email('a@example.test')])).status).toBe(503)
    await standIn.reset()
    await standIn.script({
      method: 'POST',
      pathPrefix: '/resend/emails/batch',
      responses: [],
    })
    const res = await postBatch([email('a@example.test')])
    expect(res.status).toBe(200)
    expect((await res.json<{ data: { id: string }[] }>()).data).toHaveLength(1)
  })
})

const email = (to: unknown, over: Record<string, unknown> = {}) => ({
  from: 'Alerts <alerts@example.test>',
  to,
  subject: 'Hi',
  html: '<p>Hi</p>',
  ...over,
})

function postBatch(emails: unknown, headers: Record<string, string> = {}, body?: string) {
  return fetch(`${standInUrl}/resend/emails/batch`, {
    method: 'POST',
    headers: { Authorization: 'Bearer re_test', 'Content-Type': 'application/json', ...headers },
    body: body ?? JSON.stringify(emails),
  })
}

const PERMISSIVE = { 'x-batch-validation': 'permissive' }

describe('provider stand-in: Resend batches', () => {
  it('creates every email of a valid batch and answers their ids in order', async () => {
    const res = await postBatch([email('a@example.test'), email(['Bea <b@example.test>'])])
    expect(res.status).toBe(200)
    const body = await res.json<{ data: { id: string }[]; errors?: unknown }>()
    expect(body.errors).toBeUndefined()
    const created = await standIn.emails()
    expect(body.data).toEqual(created.map((e) => ({ id: e.id })))
    expect(created.map((e) => e.to)).toEqual(['a@example.test', ['Bea <b@example.test>']])
  })

  it('refuses the whole batch in strict mode when one email is invalid', async () => {
    const res = await postBatch([email('a@example.test'), email('nobody')])
    expect(res.status).toBe(422)
    expect(await res.json()).toMatchObject({
      name: 'validation_error',
      message: expect.stringMatching(/^emails\[1\]: Invalid `to` field/),
    })
    expect(await standIn.emails()).toEqual([])
  })

  it('creates the valid emails in permissive mode and names the others by index', async () => {
    const batch = [
      email('nobody'),
      email('a@example.test'),
      email('b@example.test', { headers: { 'X-N': 1 } }),
      email('c@example.test', { subject: undefined }),
    ]
    const res = await postBatch(batch, PERMISSIVE)
    expect(res.status).toBe(200)
    const body = await res.json<{ data: { id: string }[]; errors: unknown[] }>()
    const created = await standIn.emails()
    expect(created.map((e) => e.to)).toEqual(['a@example.test'])
    expect(body.data).toEqual([{ id: created[0].id }])
    expect(body.errors).toEqual([
      { index: 0, message: expect.stringMatching(/^Invalid `to` field/) },
      { index: 2, message: 'Invalid `headers` field' },
      { index: 3, message: 'The `subject` field is missing.' },
    ])
  })

  it('refuses more than 100 emails in either mode', async () => {
    const batch = Array.from({ length: 101 }, (_, i) => email(`u${i}@example.test`))
    expect((await postBatch(batch)).status).toBe(422)
    expect((await postBatch(batch, PERMISSIVE)).status).toBe(422)
    expect(await standIn.emails()).toEqual([])
  })

  it('replays the first answer for the same key and body, and creates nothing more', async () => {
    const batch = [email('a@example.test'), email('b@example.test')]
    const headers = { ...PERMISSIVE, 'Idempotency-Key': 'stand-in/replay' }
    const first = await (await postBatch(batch, headers)).json()
    const again = await postBatch(batch, headers)
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual(first)
    expect(await standIn.emails()).toHaveLength(2)
    // Every request is still recorded, replays included.
    expect(await standIn.requests('/resend/emails/batch')).toHaveLength(2)
  })

  it('answers 409 invalid_idempotent_request for a known key with another body', async () => {
    const headers = { 'Idempotency-Key': 'stand-in/conflict' }
    expect((await postBatch([email('a@example.test')], headers)).status).toBe(200)
    const res = await postBatch([email('b@example.test')], headers)
    expect(res.status).toBe(409)
    expect(await res.json()).toMatchObject({ name: 'invalid_idempotent_request' })
    expect(await standIn.emails()).toHaveLength(1)
  })

  it('keeps no key for a refused batch, so the corrected batch goes out under it', async () => {
    const headers = { 'Idempotency-Key': 'stand-in/corrected' }
    expect((await postBatch([email('nobody')], headers)).status).toBe(422)
    expect((await postBatch([email('a@example.test')], headers)).status).toBe(200)
    expect(await standIn.emails()).toHaveLength(1)
  })

  it('lets scripted rules for /resend/emails answer batches too', async () => {
    await standIn.script({
      method: 'POST',
      pathPrefix: '/resend/emails',
      responses: [{ status: 503 }],
    })
    expect((await postBatch([email('a@example.test')], PERMISSIVE)).status).toBe(503)
    expect(await standIn.emails()).toEqual([])
  })
})

describe('provider stand-in: Telegram topics and message changes, Discord message edits', () => {
  const bot = `${standInUrl}/telegram/botstand-in-token`
  const call = async (method: string, body: object) => {
    const res = await fetch(`${bot}/${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
    return { status: res.status, body: await res.json<Record<string, any>>() }
  }
  const refusal = (description: string) => ({
    status: 400,
    body: { ok: false, error_code: 400, description },
  })

  it('answers sends into topics, edits and deletions with the Bot API’s words', async () => {
    const chat_id = -1001000000001
    expect(await call('sendMessage', { chat_id, message_thread_id: 99, text: 'hi' })).toEqual(
      refusal('Bad Request: message thread not found'),
    )
    const topic = await call('createForumTopic', { chat_id, name: 'Codeforces' })
    const thread = topic.body.result.message_thread_id
    const sent = await call('sendMessage', { chat_id, message_thread_id: thread, text: 'hi' })
    expect(sent.body.result).toMatchObject({ message_thread_id: thread, is_topic_message: true })
    const message_id = sent.body.result.message_id
    expect(await call('editMessageText', { chat_id, message_id, text: 'hi' })).toEqual(
      refusal(
        'Bad Request: message is not modified: specified new message content and reply markup ' +
          'are exactly the same as a current content and reply markup of the message',
      ),
    )
    const edited = await call('editMessageText', { chat_id, message_id, text: 'moved' })
    expect(edited.body.result).toMatchObject({ text: 'moved', edit_date: expect.any(Number) })
    await call('closeForumTopic', { chat_id, message_thread_id: thread })
    expect(await call('sendMessage', { chat_id, message_thread_id: thread, text: 'x' })).toEqual(
      refusal('Bad Request: TOPIC_CLOSED'),
    )
    await call('deleteForumTopic', { chat_id, message_thread_id: thread })
    expect(await call('sendMessage', { chat_id, message_thread_id: thread, text: 'x' })).toEqual(
      refusal('Bad Request: TOPIC_DELETED'),
    )
    expect(await call('deleteMessage', { chat_id, message_id })).toEqual({
      status: 200,
      body: { ok: true, result: true },
    })
    expect(await call('deleteMessage', { chat_id, message_id })).toEqual(
      refusal('Bad Request: message to delete not found'),
    )
    expect(await call('editMessageText', { chat_id, message_id, text: 'again' })).toEqual(
      refusal('Bad Request: message to edit not found'),
    )
  })

  it('edits and deletes the Discord bot’s own messages, Unknown Message (10008) after', async () => {
    const channel = `${standInUrl}/discord/api/v10/channels/1200000000000000901/messages`
    const headers = {
      Authorization: 'Bot stand-in-discord-bot-token',
      'Content-Type': 'application/json',
    }
    const posted = await fetch(channel, {
      method: 'POST',
      headers,
      body: JSON.stringify({ embeds: [{ title: 'Round' }] }),
    })
    const { id } = await posted.json<{ id: string }>()
    const patched = await fetch(`${channel}/${id}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ embeds: [{ title: 'Round moved' }] }),
    })
    expect(patched.status).toBe(200)
    expect(await patched.json()).toMatchObject({ id, embeds: [{ title: 'Round moved' }] })
    expect((await fetch(`${channel}/${id}`, { method: 'DELETE', headers })).status).toBe(204)
    const gone = await fetch(`${channel}/${id}`, { method: 'DELETE', headers })
    expect(gone.status).toBe(404)
    expect(await gone.json()).toEqual({ message: 'Unknown Message', code: 10008 })
  })
})

// The Discord application over HTTP interactions: Discord's Ed25519 signature (valid, tampered
// body, stale timestamp, wrong key, missing), PING, `/contests upcoming` answered from the
// catalogue, 404 and `enabled: false` without the settings, and the commands as registered.
import { env } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { addContests, contest } from '../../../test/helpers/contests.ts'
import { api } from '../../../test/helpers/users.ts'
import type { Env } from '../../env.ts'
import { toHex } from '../../lib/crypto.ts'
import { PLATFORMS } from '../../platforms/registry.ts'
import { CONTESTS_COMMAND, MAX_CHOICES } from './commands.ts'

const APPLICATION_ID = '1300000000000000001'

interface Keys {
  privateKey: CryptoKey
  publicHex: string
}

async function keyPair(): Promise<Keys> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
  const raw = (await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer
  return { privateKey: pair.privateKey, publicHex: toHex(new Uint8Array(raw)) }
}

let app: Keys
let stranger: Keys
beforeAll(async () => {
  app = await keyPair()
  stranger = await keyPair()
})

const bindings = (): Partial<Env> => ({
  DISCORD_APPLICATION_ID: APPLICATION_ID,
  DISCORD_PUBLIC_KEY: app.publicHex,
})

/** Discord's headers for `body` sent at `at` (seconds), signed with `keys`. */
async function signature(keys: Keys, body: string, at = Math.floor(Date.now() / 1000)) {
  const data = new TextEncoder().encode(`${at}${body}`)
  const signed = await crypto.subtle.sign('Ed25519', keys.privateKey, data)
  return {
    'X-Signature-Ed25519': toHex(new Uint8Array(signed)),
    'X-Signature-Timestamp': String(at),
  }
}

async function interact(
  payload: unknown,
  options: { keys?: Keys; at?: number; sent?: unknown } = {},
) {
  const headers = await signature(options.keys ?? app, JSON.stringify(payload), options.at)
  return api('POST', '/discord/interactions', {
    body: options.sent ?? payload,
    headers,
    bindings: bindings(),
  })
}

const upcoming = (platform?: string) => ({
  type: 2,
  id: '1',
  application_id: APPLICATION_ID,
  data: {
    id: '2',
    name: 'contests',
    type: 1,
    options: [
      {
        type: 1,
        name: 'upcoming',
        options: platform === undefined ? [] : [{ type: 3, name: 'platform', value: platform }],
      },
    ],
  },
})

const REFUSED = { statusCode: 401, message: 'Invalid request signature', error: 'Unauthorized' }

describe('the signature', () => {
  it('answers a signed PING with PONG', async () => {
    const res = await interact({ type: 1, id: '1', application_id: APPLICATION_ID })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ type: 1 })
  })

  it('refuses a tampered body, a stale timestamp, another key, and none (401)', async () => {
    const ping = { type: 1, id: '1' }
    const tampered = await interact(ping, { sent: { type: 1, id: '2' } })
    const stale = await interact(ping, { at: Math.floor(Date.now() / 1000) - 10 * 60 })
    const future = await interact(ping, { at: Math.floor(Date.now() / 1000) + 10 * 60 })
    const wrongKey = await interact(ping, { keys: stranger })
    const none = await api('POST', '/discord/interactions', { body: ping, bindings: bindings() })
    const garbled = await api('POST', '/discord/interactions', {
      body: ping,
      headers: { 'X-Signature-Ed25519': 'zz', 'X-Signature-Timestamp': 'soon' },
      bindings: bindings(),
    })
    for (const res of [tampered, stale, future, wrongKey, none, garbled]) {
      expect(res.status).toBe(401)
      expect(res.body).toEqual(REFUSED)
    }
  })

  it('is 404, and the application reports itself off, without the settings', async () => {
    const headers = await signature(app, '{"type":1}')
    for (const off of [{}, { DISCORD_APPLICATION_ID: APPLICATION_ID, DISCORD_PUBLIC_KEY: 'abc' }]) {
      const res = await api('POST', '/discord/interactions', {
        body: { type: 1 },
        headers,
        bindings: off,
      })
      expect(res.status).toBe(404)
      const status = await api('GET', '/discord', { bindings: off })
      expect(status.body).toEqual({ enabled: false })
    }
    const on = await api('GET', '/discord', { bindings: bindings() })
    expect(on.body).toEqual({
      enabled: true,
      applicationId: APPLICATION_ID,
      installUrl: `https://discord.com/oauth2/authorize?client_id=${APPLICATION_ID}&scope=applications.commands+bot&permissions=0`,
    })
  })
})

describe('/contests upcoming', () => {
  beforeEach(async () => {
    await env.DB.prepare('DELETE FROM contests').run()
  })

  it('lists the next contests, soonest first, as one embed with their Discord timestamps', async () => {
    const [later, sooner] = await addContests([
      contest(30, { name: 'Round *Two*', websiteUrl: 'https://codeforces.com/contest/2' }),
      contest(5, { name: 'Round One', websiteUrl: 'https://codeforces.com/contest/1' }),
      contest(-1, { name: 'Running now' }),
    ])
    const res = await interact(upcoming())
    expect(res.status).toBe(200)
    expect(res.body.type).toBe(4)
    expect(res.body.data.allowed_mentions).toEqual({ parse: [] })
    const [embed] = res.body.data.embeds
    expect(embed.title).toBe('Upcoming contests')
    const entries = embed.description.split('\n\n')
    expect(entries).toHaveLength(2)
    expect(entries[0]).toContain('[Round One](https://codeforces.com/contest/1')
    expect(entries[0]).toContain(`<t:${Math.floor(sooner.startTime / 1000)}:F>`)
    // Discord's markdown in a name is shown as typed.
    expect(entries[1]).toContain('Round \\*Two\\*')
    expect(entries[1]).toContain(`<t:${Math.floor(later.startTime / 1000)}:R>`)
    expect(embed.description).not.toContain('Running now')
  })

  it('narrows to one platform, says so when there is nothing, and refuses an unknown one', async () => {
    await addContests([contest(5, { platform: 'atcoder', type: 'ABC', name: 'ABC 500' })])
    const atcoder = await interact(upcoming('atcoder'))
    expect(atcoder.body.data.embeds[0].title).toBe('Upcoming AtCoder contests')
    expect(atcoder.body.data.embeds[0].description).toContain('ABC 500')
    const none = await interact(upcoming('leetcode'))
    expect(none.body.data.embeds[0].description).toBe(
      'No upcoming LeetCode contests in the catalogue.',
    )
    const unknown = await interact(upcoming('nosuchjudge'))
    expect(unknown.body).toEqual({
      type: 4,
      data: {
        content: 'No platform is called nosuchjudge.',
        flags: 64,
        allowed_mentions: { parse: [] },
      },
    })
  })

  it('answers a command it does not know privately, and refuses a body that is no interaction', async () => {
    const other = await interact({ type: 2, data: { name: 'remind', options: [] } })
    expect(other.body.data).toMatchObject({ flags: 64 })
    const broken = await interact({ data: 'x' })
    expect(broken.status).toBe(400)
  })
})

describe('the registered commands', () => {
  it('offer every platform as a choice, within Discord’s 25', () => {
    const option = CONTESTS_COMMAND.options[0].options[0]
    expect(option.choices.map((c) => c.value)).toEqual([...PLATFORMS])
    expect(option.choices.length).toBeLessThanOrEqual(MAX_CHOICES)
  })
})

// The Discord application over HTTP interactions: Discord's Ed25519 signature (valid, tampered
// body, stale timestamp, wrong key, missing), PING, `/contests upcoming` answered from the
// catalogue, 404 and `enabled: false` without the settings, and the commands as registered.
import { env } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { addContests, contest } from './helpers/contests.ts'
import { standIn, standInUrl } from './helpers/stand-in.ts'
import { api, createUser } from './helpers/users.ts'
import { claimWords } from '../src/communities/claims.ts'
import { findDestination, subscribe } from '../src/communities/destinations.ts'
import { createDb } from '../src/db/client.ts'
import type { Env } from '../src/env.ts'
import { toHex } from '../src/lib/crypto.ts'
import { PLATFORMS } from '../src/platforms/registry.ts'
import {
  CONTESTS_COMMAND,
  MAX_CHOICES,
  PLATFORM_CHOICES,
} from '../src/channels/discord/commands.ts'

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
  DISCORD_API_URL: `${standInUrl}/discord/api/v10`,
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

let interactionSeq = 0
/** A fresh interaction id, a snowflake as Discord's: each interaction Discord sends has its own. */
const interactionId = () => `${1_400_000_000_000_000_000n + BigInt(++interactionSeq)}`

/** The member's permissions where the command was typed, and changes to the resolved channel. */
interface CommandExtras {
  lobby?: string
  /** An undefined value drops the field. */
  target?: Record<string, unknown>
}

/**
 * `/contests <sub>` as Discord sends it from the lobby of a server: the member's permissions there
 * are `lobby`, those in the target channel (Discord's resolved channel) `permissions`.
 */
const guildCommand = (
  where: { guild: string; lobby: string; channel: string },
  sub: string,
  options: { name: string; value: string }[],
  permissions: string,
  { lobby = '0', target = {} }: CommandExtras = {},
) => ({
  type: 2,
  id: interactionId(),
  application_id: APPLICATION_ID,
  token: `interaction-token-${interactionSeq}`,
  guild_id: where.guild,
  channel_id: where.lobby,
  member: { permissions: lobby, user: { id: '42' } },
  data: {
    name: 'contests',
    options: [{ type: 1, name: sub, options }],
    resolved: {
      channels: {
        [where.channel]: { id: where.channel, name: 'contests', type: 0, permissions, ...target },
      } as Record<string, unknown>,
    },
  },
})

const upcoming = (platform?: string) => ({
  type: 2,
  id: interactionId(),
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
    const other = await interact({
      type: 2,
      id: interactionId(),
      data: { name: 'remind', options: [] },
    })
    expect(other.body.data).toMatchObject({ flags: 64 })
    const broken = await interact({ data: 'x' })
    expect(broken.status).toBe(400)
  })
})

describe('/contests subscribe, unsubscribe and settings', () => {
  const CHANNEL = '1200000000000000777'
  const LOBBY = '1200000000000000778'
  const GUILD = '1100000000000000777'
  const command = (
    sub: string,
    options: { name: string; value: string }[],
    permissions = '16',
    more?: CommandExtras,
  ) =>
    guildCommand({ guild: GUILD, lobby: LOBBY, channel: CHANNEL }, sub, options, permissions, more)

  /** The content the deferred reply was edited to. */
  const editedReply = async () => {
    const edits = await standIn.requests(`/discord/api/v10/webhooks/${APPLICATION_ID}/`)
    const last = edits.at(-1)!
    expect(last.method).toBe('PATCH')
    expect(last.path).toBe(
      `/discord/api/v10/webhooks/${APPLICATION_ID}/interaction-token-${interactionSeq}/messages/@original`,
    )
    return JSON.parse(last.body).content as string
  }

  const place = { channel: 'discord' as const, chatId: CHANNEL, guildId: GUILD }

  beforeEach(async () => {
    await env.DB.prepare('DELETE FROM community_destinations').run()
    await standIn.reset()
  })

  it('lets a member who manages channels subscribe a channel, deferring the work', async () => {
    const res = await interact(
      command('subscribe', [
        { name: 'channel', value: CHANNEL },
        { name: 'platforms', value: 'codeforces AtCoder' },
        { name: 'role', value: '1300000000000000555' },
        { name: 'lead', value: '60 1440' },
      ]),
    )
    expect(res.body).toEqual({ type: 5, data: { flags: 64 } })
    expect(await editedReply()).toMatch(
      /^Subscribed #contests\. Announcements here: Codeforces, AtCoder\./,
    )
    expect(await findDestination(createDb(env.DB), place)).toMatchObject({
      guildId: GUILD,
      title: '#contests',
      roleId: '1300000000000000555',
      platforms: ['codeforces', 'atcoder'],
      leadTimes: [1440, 60],
    })

    const settings = await interact(command('settings', [{ name: 'channel', value: CHANNEL }], '0'))
    expect(settings.body.data).toMatchObject({ flags: 64 })
    expect(settings.body.data.content).toContain('When: 1 d, 1 h before each start.')

    await interact(command('unsubscribe', [{ name: 'channel', value: CHANNEL }], '8'))
    expect(await editedReply()).toBe('Unsubscribed: no more announcements in #contests.')
    expect(await findDestination(createDb(env.DB), place)).toBe(undefined)
  })

  it('refuses members without Manage Channels, a command outside a server, and bad choices', async () => {
    const subscribeTo = [
      { name: 'channel', value: CHANNEL },
      { name: 'platforms', value: 'codeforces' },
    ]
    for (const permissions of ['0', '2048', 'not-a-number']) {
      const res = await interact(command('subscribe', subscribeTo, permissions))
      expect(res.body.data).toEqual({
        content: 'Only members who may manage #contests can change its announcements.',
        flags: 64,
        allowed_mentions: { parse: [] },
      })
    }
    const { guild_id: _guild, member: _member, ...direct } = command('subscribe', subscribeTo)
    expect((await interact(direct)).body.data.content).toBe('Use this command in a server.')
    const unknown = await interact(
      command('subscribe', [
        { name: 'channel', value: CHANNEL },
        { name: 'platforms', value: 'nosuchjudge' },
      ]),
    )
    expect(unknown.body.data.content).toMatch(/^No platform is called nosuchjudge/)
    const tooSoon = await interact(
      command('subscribe', [...subscribeTo, { name: 'lead', value: '1' }]),
    )
    expect(tooSoon.body.data.content).toBe('lead times must be at least 5 minutes.')
    expect(await findDestination(createDb(env.DB), place)).toBe(undefined)
    expect(await standIn.requests('/discord/api/v10/webhooks/')).toEqual([])
  })
})

describe('the target channel of a community command', () => {
  const CHANNEL = '1200000000000000888'
  const LOBBY = '1200000000000000889'
  const GUILD = '1100000000000000888'
  const OTHER_GUILD = '1100000000000000999'
  const MANAGE_CHANNELS = String(0x10)
  const place = { channel: 'discord' as const, chatId: CHANNEL, guildId: GUILD }
  const inChannel = { name: 'channel', value: CHANNEL }
  const subscribeTo = [inChannel, { name: 'platforms', value: 'codeforces' }]
  const command = (
    sub: string,
    options: { name: string; value: string }[],
    permissions: string,
    more?: CommandExtras,
  ) =>
    guildCommand({ guild: GUILD, lobby: LOBBY, channel: CHANNEL }, sub, options, permissions, more)

  const refusal = (content: string) => ({ content, flags: 64, allowed_mentions: { parse: [] } })
  const MAY_NOT = refusal('Only members who may manage #contests can change its announcements.')
  const db = () => createDb(env.DB)

  /** The contents the deferred replies were edited to, in order. */
  const editedReplies = async () => {
    const edits = await standIn.requests(`/discord/api/v10/webhooks/${APPLICATION_ID}/`)
    return edits.map((e) => JSON.parse(e.body).content as string)
  }

  beforeEach(async () => {
    await env.DB.prepare('DELETE FROM community_destinations').run()
    await standIn.reset()
  })

  it('refuses a member who may manage channels where the command was typed but not in the target', async () => {
    await subscribe(db(), { ...place, title: '#contests' }, { platforms: ['atcoder'] }, Date.now())
    const code = { name: 'code', value: 'ABCDEFGHJK' }
    for (const lobby of [MANAGE_CHANNELS, '8']) {
      for (const [sub, options] of [
        ['subscribe', subscribeTo],
        ['unsubscribe', [inChannel]],
        ['claim', [inChannel, code]],
      ] as const) {
        const res = await interact(command(sub, [...options], '0', { lobby }))
        expect(res.status).toBe(200)
        expect(res.body.data).toEqual(MAY_NOT)
      }
    }
    expect(await findDestination(db(), place)).toMatchObject({
      platforms: ['atcoder'],
      ownerId: null,
    })
    expect(await standIn.requests('/discord/api/v10/webhooks/')).toEqual([])
  })

  it('refuses when Discord did not resolve the member’s permissions in the target channel', async () => {
    const noRights = command('subscribe', subscribeTo, MANAGE_CHANNELS, {
      lobby: MANAGE_CHANNELS,
      target: { permissions: undefined },
    })
    expect((await interact(noRights)).body.data).toEqual(MAY_NOT)
    const unresolved = command('subscribe', subscribeTo, MANAGE_CHANNELS, {
      lobby: MANAGE_CHANNELS,
    })
    unresolved.data.resolved.channels = {}
    expect((await interact(unresolved)).body.data).toEqual(refusal('Choose a channel.'))
    expect(await findDestination(db(), place)).toBe(undefined)
    expect(await standIn.requests('/discord/api/v10/webhooks/')).toEqual([])
  })

  it('refuses a target channel that Discord resolves in another server', async () => {
    const elsewhere = { lobby: MANAGE_CHANNELS, target: { guild_id: OTHER_GUILD } }
    for (const sub of ['subscribe', 'unsubscribe', 'settings']) {
      const res = await interact(command(sub, subscribeTo, MANAGE_CHANNELS, elsewhere))
      expect(res.body.data).toEqual(refusal('Choose a channel of this server.'))
    }
    expect(await findDestination(db(), place)).toBe(undefined)
    expect(await findDestination(db(), { ...place, guildId: OTHER_GUILD })).toBe(undefined)
    expect(await standIn.requests('/discord/api/v10/webhooks/')).toEqual([])
  })

  it('lets a member with Manage Channels (0x10) in the target channel change it, whatever the lobby', async () => {
    const res = await interact(
      command('subscribe', subscribeTo, MANAGE_CHANNELS, { target: { guild_id: GUILD } }),
    )
    expect(res.body).toEqual({ type: 5, data: { flags: 64 } })
    expect(await editedReplies()).toEqual([
      expect.stringMatching(/^Subscribed #contests\. Announcements here: Codeforces\./),
    ])
    expect(await findDestination(db(), place)).toMatchObject({
      guildId: GUILD,
      platforms: ['codeforces'],
    })
    await interact(command('unsubscribe', [inChannel], MANAGE_CHANNELS))
    expect(await findDestination(db(), place)).toBe(undefined)
  })

  it('runs a signed interaction once when the same request is posted twice', async () => {
    const payload = command('subscribe', subscribeTo, MANAGE_CHANNELS)
    const headers = await signature(app, JSON.stringify(payload))
    const post = () =>
      api('POST', '/discord/interactions', { body: payload, headers, bindings: bindings() })
    expect((await post()).body).toEqual({ type: 5, data: { flags: 64 } })
    await interact(command('unsubscribe', [inChannel], MANAGE_CHANNELS))
    expect(await findDestination(db(), place)).toBe(undefined)

    const again = await post()
    expect(again.status).toBe(409)
    expect(again.body).toEqual({
      statusCode: 409,
      message: 'This interaction was already answered',
      error: 'Conflict',
    })
    // The copy subscribed nothing again and edited no reply.
    expect(await findDestination(db(), place)).toBe(undefined)
    expect(await editedReplies()).toEqual([
      expect.stringMatching(/^Subscribed #contests\./),
      'Unsubscribed: no more announcements in #contests.',
    ])

    // Copies that race: one runs.
    const list = upcoming()
    const listHeaders = await signature(app, JSON.stringify(list))
    const copies = await Promise.all(
      [1, 2, 3].map(() =>
        api('POST', '/discord/interactions', {
          body: list,
          headers: listHeaders,
          bindings: bindings(),
        }),
      ),
    )
    expect(copies.map((r) => r.status).sort()).toEqual([200, 409, 409])
  })

  it('leaves a channel subscribed under another server alone, whatever this server asks', async () => {
    const elsewhere = { ...place, guildId: OTHER_GUILD, title: '#contests' }
    await subscribe(db(), elsewhere, { platforms: ['atcoder'] }, Date.now())
    const owner = await createUser()
    const made = await api('POST', '/communities/claim-codes', { token: owner.accessToken })
    expect(made.status).toBe(201)

    const settings = await interact(command('settings', [inChannel], '0'))
    expect(settings.body.data).toEqual(refusal('#contests has no announcements.'))
    await interact(command('unsubscribe', [inChannel], MANAGE_CHANNELS))
    await interact(command('subscribe', subscribeTo, MANAGE_CHANNELS))
    const claim = [inChannel, { name: 'code', value: made.body.code }]
    await interact(command('claim', claim, MANAGE_CHANNELS))
    expect(await editedReplies()).toEqual([
      '#contests has no announcements.',
      '#contests is subscribed from another server; nothing was changed.',
      claimWords('no-destination'),
    ])
    expect(await findDestination(db(), elsewhere)).toMatchObject({
      guildId: OTHER_GUILD,
      platforms: ['atcoder'],
      ownerId: null,
    })
    expect(await findDestination(db(), place)).toBe(undefined)
  })
})

describe('the registered commands', () => {
  it('offer every platform as a choice, within Discord’s 25', () => {
    expect(PLATFORM_CHOICES.map((c) => c.value)).toEqual([...PLATFORMS])
    expect(PLATFORM_CHOICES.length).toBeLessThanOrEqual(MAX_CHOICES)
    expect(CONTESTS_COMMAND.options.map((o) => o.name)).toEqual([
      'upcoming',
      'subscribe',
      'unsubscribe',
      'settings',
      'claim',
      'rankupdates',
      'handle',
      'roles',
    ])
  })
})

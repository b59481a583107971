// Roles members pick in a Discord channel subscription: `/contests roles set|unset` by members who
// manage the channel, `/contests roles list` for anyone; an announcement pings the roles of its
// platform and type (allowed_mentions limited to them) and carries a "Ping me for …" button; a
// press gives the member the role and a second press takes it away (signed and run once, as every
// interaction), and Discord's Missing Permissions is answered privately in words.
import { env } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { announceDue } from '../src/communities/announce.ts'
import { redeemClaimCode } from '../src/communities/claims.ts'
import {
  findDestination,
  refuseEvents,
  setRole,
  subscribe,
} from '../src/communities/destinations.ts'
import { parseRoles } from '../src/communities/roles.ts'
import { createDb } from '../src/db/client.ts'
import type { Env } from '../src/env.ts'
import { toHex } from '../src/lib/crypto.ts'
import { CONTESTS_COMMAND } from '../src/channels/discord/commands.ts'
import { addContests, contest } from './helpers/contests.ts'
import { consume, resetNotifications, testEnv } from './helpers/notifications.ts'
import { standIn, standInUrl } from './helpers/stand-in.ts'
import { select, selectOne } from './helpers/html.ts'
import { api, createUser } from './helpers/users.ts'
import { expectPage, formErrors, signedInBrowser } from './helpers/web-app.ts'

const APPLICATION_ID = '1300000000000000001'
const GUILD = '1100000000000000601'
const CHANNEL = '1200000000000000601'
const LOBBY = '1200000000000000602'
const MEMBER = '1000000000000000042'
const CF_ROLE = '1300000000000000611'
const TYPE_ROLE = '1300000000000000612'
const AC_ROLE = '1300000000000000613'
const BOT = {
  DISCORD_BOT_TOKEN: 'stand-in-discord-bot-token',
  DISCORD_API_URL: `${standInUrl}/discord/api/v10`,
} satisfies Partial<Env>
const ROLE_PATH = (role: string) =>
  `/discord/api/v10/guilds/${GUILD}/members/${MEMBER}/roles/${role}`

let keys: { privateKey: CryptoKey; publicHex: string }
beforeAll(async () => {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
  const raw = (await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer
  keys = { privateKey: pair.privateKey, publicHex: toHex(new Uint8Array(raw)) }
})

const bindings = (): Partial<Env> => ({
  ...BOT,
  DISCORD_APPLICATION_ID: APPLICATION_ID,
  DISCORD_PUBLIC_KEY: keys.publicHex,
})

/** POSTs `payload` signed as Discord signs it (`body` sends something else under the signature). */
async function interact(payload: unknown, body?: unknown) {
  const at = Math.floor(Date.now() / 1000)
  const data = new TextEncoder().encode(`${at}${JSON.stringify(payload)}`)
  const signed = await crypto.subtle.sign('Ed25519', keys.privateKey, data)
  return api('POST', '/discord/interactions', {
    body: body ?? payload,
    headers: {
      'X-Signature-Ed25519': toHex(new Uint8Array(signed)),
      'X-Signature-Timestamp': String(at),
    },
    bindings: bindings(),
  })
}

let seq = 0
const nextId = () => `${1_450_000_000_000_000_000n + BigInt(++seq)}`

/** `/contests roles <sub>` as Discord sends it: a group holding the subcommand. */
function rolesCommand(
  sub: string,
  options: { name: string; value: string }[],
  permissions: string,
  channel: string | undefined = CHANNEL,
) {
  const id = nextId()
  return {
    type: 2,
    id,
    application_id: APPLICATION_ID,
    token: `roles-token-${id}`,
    guild_id: GUILD,
    channel_id: LOBBY,
    member: { permissions: '0', user: { id: MEMBER }, roles: [] },
    data: {
      name: 'contests',
      options: [
        {
          type: 2,
          name: 'roles',
          options: [
            {
              type: 1,
              name: sub,
              options: [
                ...(channel ? [{ type: 7, name: 'channel', value: channel }] : []),
                ...options,
              ],
            },
          ],
        },
      ],
      resolved: channel
        ? { channels: { [channel]: { id: channel, name: 'contests', type: 0, permissions } } }
        : undefined,
    },
  }
}

/** A press of the button `customId` under an announcement in CHANNEL, by a member holding `roles`. */
function press(customId: string, roles: string[]) {
  const id = nextId()
  return {
    type: 3,
    id,
    application_id: APPLICATION_ID,
    token: `press-token-${id}`,
    guild_id: GUILD,
    channel_id: CHANNEL,
    member: { user: { id: MEMBER }, roles, permissions: '0' },
    message: { id: '1600000000000000001', channel_id: CHANNEL },
    data: { custom_id: customId, component_type: 2 },
  }
}

/** The content the deferred reply of the interaction with `token` was edited to. */
async function editedReply(token: string) {
  const edits = await standIn.requests(
    `/discord/api/v10/webhooks/${APPLICATION_ID}/${token}/messages/@original`,
  )
  expect(edits).toHaveLength(1)
  expect(edits[0].method).toBe('PATCH')
  const body = JSON.parse(edits[0].body)
  // A role named in a reply pings nobody.
  expect(body.allowed_mentions).toEqual({ parse: [] })
  return body.content as string
}

const db = () => createDb(env.DB)
const place = { channel: 'discord' as const, chatId: CHANNEL, guildId: GUILD, title: '#contests' }

beforeEach(async () => {
  await resetNotifications()
  await env.DB.prepare('DELETE FROM community_destinations').run()
})

describe('/contests roles', () => {
  it('is registered as a group of list, set and unset', () => {
    const group = CONTESTS_COMMAND.options.find((o) => o.name === 'roles')
    expect(group?.type).toBe(2)
    expect(group?.options?.map((o) => o.name)).toEqual(['list', 'set', 'unset'])
    const subscribeOptions = CONTESTS_COMMAND.options.find((o) => o.name === 'subscribe')?.options
    expect(subscribeOptions?.find((o) => o.name === 'events')).toMatchObject({ type: 5 })
  })

  it('lets members who manage the channel map roles, and anyone list them', async () => {
    await subscribe(db(), place, { platforms: ['codeforces', 'atcoder'] }, Date.now())
    const set = rolesCommand(
      'set',
      [
        { name: 'platform', value: 'Codeforces' },
        { name: 'role', value: CF_ROLE },
      ],
      '16',
    )
    const res = await interact(set)
    expect(res.body).toEqual({ type: 5, data: { flags: 64 } })
    expect(await editedReply(set.token)).toBe(
      `Announcements of Codeforces in #contests ping <@&${CF_ROLE}>, and members take it with their button.`,
    )
    const typed = rolesCommand(
      'set',
      [
        { name: 'platform', value: 'Div 2' },
        { name: 'role', value: TYPE_ROLE },
      ],
      '8',
    )
    await interact(typed)
    expect((await findDestination(db(), place))?.roles).toEqual({
      codeforces: CF_ROLE,
      div2: TYPE_ROLE,
    })

    // Without Manage Channels in that channel: refused, nothing changed.
    const member = rolesCommand(
      'set',
      [
        { name: 'platform', value: 'atcoder' },
        { name: 'role', value: AC_ROLE },
      ],
      '0',
    )
    expect((await interact(member)).body.data.content).toBe(
      'Only members who may manage #contests can change its announcements.',
    )
    const everyone = rolesCommand(
      'set',
      [
        { name: 'platform', value: 'atcoder' },
        { name: 'role', value: GUILD },
      ],
      '16',
    )
    expect((await interact(everyone)).body.data.content).toBe('Choose a role other than @everyone.')

    // Any member lists them, from the channel itself without naming it.
    const list = rolesCommand('list', [], '0', undefined)
    list.channel_id = CHANNEL
    const listed = await interact(list)
    expect(listed.body.type).toBe(4)
    expect(listed.body.data.flags).toBe(64)
    expect(listed.body.data.allowed_mentions).toEqual({ parse: [] })
    expect(listed.body.data.content).toContain(`Codeforces: <@&${CF_ROLE}>`)
    expect(listed.body.data.content).toContain(`div2: <@&${TYPE_ROLE}>`)

    const unset = rolesCommand('unset', [{ name: 'platform', value: 'div2' }], '16')
    await interact(unset)
    expect(await editedReply(unset.token)).toBe(
      'Announcements of div2 in #contests ping no role of their own now.',
    )
    expect((await findDestination(db(), place))?.roles).toEqual({ codeforces: CF_ROLE })
  })

  it('reads the Communities page’s field and refuses what is no mapping', () => {
    expect(parseRoles(`codeforces: ${CF_ROLE}, Div 2 = ${TYPE_ROLE}`)).toEqual({
      ok: true,
      roles: { codeforces: CF_ROLE, div2: TYPE_ROLE },
    })
    expect(parseRoles('codeforces: everyone')).toEqual({
      ok: false,
      error: 'Roles: everyone is not a role id',
    })
    expect(parseRoles('')).toEqual({ ok: true, roles: {} })
  })
})

describe('an announcement with roles', () => {
  it('pings the roles of its platform and type only, with a button for each', async () => {
    const e = testEnv(BOT)
    await subscribe(db(), place, { platforms: ['codeforces'] }, Date.now())
    for (const [key, role] of [
      ['codeforces', CF_ROLE],
      ['cf', TYPE_ROLE],
      ['atcoder', AC_ROLE],
    ]) {
      await setRole(db(), place, key, role, Date.now())
    }
    await addContests([contest(0.75, { name: 'Round @everyone', type: 'CF' })])
    await announceDue(env.DB, e.NOTIFICATIONS_QUEUE, Date.now())
    await consume(
      e,
      e.NOTIFICATIONS_QUEUE.bodies.splice(0).map((body) => ({ body, attempts: 1 })),
    )
    const [post] = await standIn.requests(`/discord/api/v10/channels/${CHANNEL}/messages`)
    const body = JSON.parse(post.body)
    expect(body.content).toBe(`<@&${CF_ROLE}> <@&${TYPE_ROLE}>`)
    expect(body.allowed_mentions).toEqual({ parse: [], roles: [CF_ROLE, TYPE_ROLE] })
    expect(body.components).toEqual([
      {
        type: 1,
        components: [
          {
            type: 2,
            style: 2,
            label: 'Ping me for Codeforces',
            custom_id: 'contests:role:codeforces',
          },
          { type: 2, style: 2, label: 'Ping me for cf', custom_id: 'contests:role:cf' },
        ],
      },
    ])
    expect(post.status).toBe(200)
  })
})

describe('the "Ping me" button', () => {
  beforeEach(async () => {
    await subscribe(db(), place, { platforms: ['codeforces'] }, Date.now())
    await setRole(db(), place, 'codeforces', CF_ROLE, Date.now())
  })

  it('gives the member the role, takes it away on the next press, and runs each press once', async () => {
    const first = press('contests:role:codeforces', [])
    const res = await interact(first)
    expect(res.body).toEqual({ type: 5, data: { flags: 64 } })
    const added = await standIn.requests(ROLE_PATH(CF_ROLE))
    expect(added.map((r) => [r.method, r.status, r.headers.authorization])).toEqual([
      ['PUT', 204, 'Bot stand-in-discord-bot-token'],
    ])
    expect(await editedReply(first.token)).toBe(
      `You have <@&${CF_ROLE}> now: announcements of Codeforces here ping you. Press again to stop.`,
    )
    // The same signed press again is refused: no second call.
    expect((await interact(first)).status).toBe(409)
    expect(await standIn.requests(ROLE_PATH(CF_ROLE))).toHaveLength(1)

    const second = press('contests:role:codeforces', [CF_ROLE])
    await interact(second)
    const calls = await standIn.requests(ROLE_PATH(CF_ROLE))
    expect(calls.map((r) => [r.method, r.status])).toEqual([
      ['PUT', 204],
      ['DELETE', 204],
    ])
    expect(await editedReply(second.token)).toMatch(new RegExp(`^<@&${CF_ROLE}> is taken away`))
  })

  it('says privately when Discord refuses (Missing Permissions), and knows no unmapped role', async () => {
    await standIn.script({
      method: 'PUT',
      pathPrefix: ROLE_PATH(CF_ROLE),
      responses: [{ status: 403, body: { message: 'Missing Permissions', code: 50013 } }],
    })
    const refused = press('contests:role:codeforces', [])
    await interact(refused)
    expect(await editedReply(refused.token)).toBe(
      `I cannot give you <@&${CF_ROLE}>: the bot needs the Manage Roles permission and a role of ` +
        'its own above it. Ask the server’s administrators.',
    )

    const stale = await interact(press('contests:role:atcoder', []))
    expect(stale.body).toEqual({
      type: 4,
      data: {
        content: 'AtCoder has no role in this channel any more.',
        flags: 64,
        allowed_mentions: { parse: [] },
      },
    })
    const forged = press('contests:role:codeforces', [])
    const tampered = await interact(forged, { ...forged, data: { custom_id: 'contests:role:x' } })
    expect(tampered.status).toBe(401)
    expect(await standIn.requests(`/discord/api/v10/guilds/${GUILD}/members/`)).toHaveLength(1)
  })
})

describe('the Communities page of a claimed Discord channel', () => {
  it('turns events on, shows a refusal, and maps roles', async () => {
    const owner = await createUser()
    const d = await subscribe(db(), place, { platforms: ['codeforces'] }, Date.now())
    const code = await api('POST', '/communities/claim-codes', { token: owner.accessToken })
    expect(await redeemClaimCode(db(), code.body.code, place, Date.now())).toBe('claimed')
    const browser = await signedInBrowser(owner)
    const opened = await browser.get('/app/communities')
    expectPage(opened, 200)
    expect((await selectOne(opened.html, `#community-${d.id}-events`)).attrs.checked).toBe(
      undefined,
    )
    const fields = {
      platforms: ['codeforces'],
      leadTimes: '60',
      contestTypes: '',
      includeWords: '',
      excludeWords: '',
      minDuration: '',
      events: 'on',
      roles: `codeforces: ${CF_ROLE}, div2: ${TYPE_ROLE}`,
    }
    const saved = await browser.post(`/app/communities/${d.id}`, fields, { csrf: opened.csrf })
    expect(saved.status).toBe(303)
    expect(await findDestination(db(), place)).toMatchObject({
      events: true,
      roles: { codeforces: CF_ROLE, div2: TYPE_ROLE },
    })
    const refused = await browser.post(
      `/app/communities/${d.id}`,
      { ...fields, roles: 'codeforces: admins' },
      { csrf: opened.csrf },
    )
    expectPage(refused, 400)
    expect(await formErrors(refused)).toEqual(['Roles: admins is not a role id'])

    // Discord refused the events: the page says so, and saving with the box ticked asks again.
    await refuseEvents(db(), d.id, Date.now())
    const after = await browser.get('/app/communities')
    const [item] = await select(after.html, 'li.community')
    expect(item.text).toContain('Events: stopped, the bot needs the Manage Events permission.')
    expect(item.text).toContain(`Roles: Codeforces: <@&${CF_ROLE}>, div2: <@&${TYPE_ROLE}>.`)
    expect((await selectOne(after.html, `#community-${d.id}-roles`)).attrs.value).toBe(
      `codeforces: ${CF_ROLE}, div2: ${TYPE_ROLE}`,
    )
    await browser.post(`/app/communities/${d.id}`, fields, { csrf: after.csrf })
    expect((await findDestination(db(), place))?.eventsRefusedAt).toBe(null)
    // Unticked: off.
    const { events: _off, ...unticked } = fields
    await browser.post(`/app/communities/${d.id}`, unticked, { csrf: after.csrf })
    expect((await findDestination(db(), place))?.events).toBe(false)

    // The API shows the same.
    const listed = await api('GET', '/communities', { token: owner.accessToken })
    expect(listed.body.communities[0]).toMatchObject({
      events: false,
      eventsRefusedAt: null,
      roles: { codeforces: CF_ROLE, div2: TYPE_ROLE },
    })
  })
})

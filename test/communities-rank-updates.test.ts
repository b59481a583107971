// Rank updates in communities (issue 43): a Discord channel or Telegram group turns them on
// (Manage Channels, administrators), members register a handle there, proven by a token in its
// public profile (told privately) or by their linked account holding it proven; after a contest's
// results are published, one post lists the members' ranks and ratings, best gains first, new
// titles called out, bounded; exactly one per (destination, contest) under two concurrent runs and
// retried messages; an unrated contest lists ranks; turned off, removed or another destination's
// members are not listed; leaving the group or deleting the account removes the registration.
import { env } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { deleteUser } from '../src/account/deletion.ts'
import { redeemClaimCode } from '../src/communities/claims.ts'
import { findDestination, setRankUpdates, subscribe } from '../src/communities/destinations.ts'
import { createRankPosts, MAX_RANK_LINES, rankPostWords } from '../src/communities/rank-posts.ts'
import { createDb } from '../src/db/client.ts'
import type { ContestRow } from '../src/db/schema.ts'
import type { Env } from '../src/env.ts'
import { resultChecksJob } from '../src/jobs/results.ts'
import { toHex } from '../src/lib/crypto.ts'
import { CONTESTS_COMMAND } from '../src/channels/discord/commands.ts'
import { findCheck } from '../src/results/checks.ts'
import { askCheck } from '../src/results/consumer.ts'
import { storeResults } from '../src/results/store.ts'
import { consume, PROVIDERS, resetNotifications, testEnv } from './helpers/notifications.ts'
import {
  clearResults,
  endedContest,
  linkHandle,
  recordingResultsQueue,
  resultsFixture,
  scriptCodeforces,
  serveResults,
  testResultsDeps,
} from './helpers/results.ts'
import { standIn, standInUrl } from './helpers/stand-in.ts'
import { api, createUser } from './helpers/users.ts'
import { expectPage, signedInBrowser } from './helpers/web-app.ts'
import { selectOne } from './helpers/html.ts'

const APPLICATION_ID = '1300000000000000001'
const GUILD = '1100000000000000701'
const CHANNEL = '1200000000000000701'
const OTHER_CHANNEL = '1200000000000000702'
const ADA = '1000000000000000071'
const BOB = '1000000000000000072'
const TG_TOKEN = PROVIDERS.TELEGRAM_BOT_TOKEN!
const SEND_PATH = `/telegram/bot${TG_TOKEN}/sendMessage`
const MEMBER_PATH = `/telegram/bot${TG_TOKEN}/getChatMember`
const USER_INFO = '/codeforces-api/user.info'
const postsPath = (channel: string) => `/discord/api/v10/channels/${channel}/messages`

let keys: { privateKey: CryptoKey; publicHex: string }
beforeAll(async () => {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
  const raw = (await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer
  keys = { privateKey: pair.privateKey, publicHex: toHex(new Uint8Array(raw)) }
})

beforeEach(async () => {
  await resetNotifications()
  await clearResults()
  await env.DB.prepare('DELETE FROM community_destinations').run()
  await serveResults('codeforces')
})

const db = () => createDb(env.DB)

const discordBindings = (): Partial<Env> => ({
  DISCORD_BOT_TOKEN: 'stand-in-discord-bot-token',
  DISCORD_API_URL: `${standInUrl}/discord/api/v10`,
  DISCORD_APPLICATION_ID: APPLICATION_ID,
  DISCORD_PUBLIC_KEY: keys.publicHex,
})

let seq = 0
const nextId = () => `${1_460_000_000_000_000_000n + BigInt(++seq)}`

/** `/contests <sub>` signed as Discord sends it, by `member` in CHANNEL; the edited reply. */
async function discord(
  sub: string,
  options: { name: string; type?: number; value: unknown }[],
  { member = ADA, permissions = '0' } = {},
) {
  const id = nextId()
  const payload = {
    type: 2,
    id,
    application_id: APPLICATION_ID,
    token: `rank-token-${id}`,
    guild_id: GUILD,
    channel_id: CHANNEL,
    member: { permissions, user: { id: member }, roles: [] },
    data: {
      name: 'contests',
      options: [{ type: 1, name: sub, options }],
      resolved: {
        channels: { [CHANNEL]: { id: CHANNEL, name: 'contests', type: 0, permissions } },
      },
    },
  }
  const at = Math.floor(Date.now() / 1000)
  const data = new TextEncoder().encode(`${at}${JSON.stringify(payload)}`)
  const signed = await crypto.subtle.sign('Ed25519', keys.privateKey, data)
  const res = await api('POST', '/discord/interactions', {
    body: payload,
    headers: {
      'X-Signature-Ed25519': toHex(new Uint8Array(signed)),
      'X-Signature-Timestamp': String(at),
    },
    bindings: discordBindings(),
  })
  expect(res.status).toBe(200)
  if (res.body.type === 4)
    return { ephemeral: res.body.data.flags === 64, text: res.body.data.content }
  // Deferred (5), privately: the reply is the edit of the original message.
  expect(res.body).toEqual({ type: 5, data: { flags: 64 } })
  const edits = await standIn.requests(
    `/discord/api/v10/webhooks/${APPLICATION_ID}/rank-token-${id}/messages/@original`,
  )
  expect(edits).toHaveLength(1)
  return { ephemeral: true, text: JSON.parse(edits[0].body).content as string }
}

const channelOption = (channel = CHANNEL) => ({ type: 7, name: 'channel', value: channel })
const handle = (platform: string, value?: string, extra: object[] = []) =>
  discord('handle', [
    { type: 3, name: 'platform', value: platform },
    ...(value ? [{ type: 3, name: 'handle', value }] : []),
    ...(extra as never[]),
  ])

/** user.info of `handle` as Codeforces answers it, its first name holding `firstName`. */
const profile = (asked: string, spelled: string, firstName: string) =>
  standIn.script({
    pathPrefix: USER_INFO,
    query: { handles: asked },
    responses: [
      {
        status: 200,
        body: {
          status: 'OK',
          result: [{ handle: spelled, firstName, rating: 1623, rank: 'expert' }],
        },
      },
    ],
  })

/** A Discord channel of GUILD, subscribed to Codeforces with rank updates on (or not). */
async function discordChannel(chatId = CHANNEL, rankUpdates = true) {
  const place = { channel: 'discord' as const, chatId, guildId: GUILD, title: '#contests' }
  await subscribe(db(), place, { platforms: ['codeforces'] }, Date.now())
  return (await setRankUpdates(db(), place, rankUpdates, Date.now()))!
}

/** A member proven in the destination directly, as a proof leaves the row. */
async function member(destinationId: string, memberId: string, handleName: string) {
  const now = Date.now()
  await env.DB.prepare(
    `INSERT INTO community_members (id, destination_id, member_id, platform, handle, handle_key,
       state, proven_at, created_at, updated_at)
       VALUES (?1, ?2, ?3, 'codeforces', ?4, ?5, 'PROVEN', ?6, ?6, ?6)`,
  )
    .bind(crypto.randomUUID(), destinationId, memberId, handleName, handleName.toLowerCase(), now)
    .run()
}

const membersOf = async (destinationId: string) =>
  (
    await env.DB.prepare(
      `SELECT member_id AS memberId, handle, state, user_id AS userId FROM community_members
        WHERE destination_id = ? ORDER BY member_id, platform`,
    )
      .bind(destinationId)
      .all<{ memberId: string; handle: string; state: string; userId: string | null }>()
  ).results

const postRows = async () =>
  (
    await env.DB.prepare(
      'SELECT destination_id AS destinationId, contest_id AS contestId, status FROM community_rank_posts',
    ).all<{ destinationId: string; contestId: string; status: string }>()
  ).results

async function posts(channel = CHANNEL) {
  const sent = await standIn.requests(postsPath(channel))
  return sent.map((r) => JSON.parse(r.body))
}

/** Round 2289 ended, its check made, and Codeforces' recorded ratings published. */
async function publishedRound() {
  const round = await endedContest('codeforces', '2289', {
    name: 'Educational Codeforces Round 186 (Rated for Div. 2)',
  })
  await resultChecksJob({ ...env, RESULTS_QUEUE: recordingResultsQueue() as any }, Date.now(), [
    'codeforces',
  ])
  await scriptCodeforces('contest.ratingChanges', '2289', [
    resultsFixture('codeforces', 'rating-changes-2289.json'),
  ])
  return round
}

/** Runs the queue's messages the app enqueued, once each; each may be given again. */
async function deliver(
  e: ReturnType<typeof testEnv>,
  bodies = e.NOTIFICATIONS_QUEUE.bodies.splice(0),
) {
  const rankPosts = bodies.filter((b: any) => typeof b?.rankPostId === 'string')
  if (rankPosts.length > 0)
    await consume(
      e,
      rankPosts.map((body) => ({ body, attempts: 1 })),
    )
  return rankPosts
}

describe('commands', () => {
  it('registers /contests rankupdates and /contests handle for the registration script', () => {
    const names = CONTESTS_COMMAND.options.map((o) => o.name)
    expect(names).toEqual(expect.arrayContaining(['rankupdates', 'handle']))
    const handleCommand = CONTESTS_COMMAND.options.find((o) => o.name === 'handle')!
    const platform = handleCommand.options!.find((o) => o.name === 'platform') as any
    expect(platform.choices.map((c: any) => c.value)).toContain('codeforces')
  })

  it('turns rank updates on from Discord for members who manage the channel only', async () => {
    const place = { channel: 'discord' as const, chatId: CHANNEL, guildId: GUILD, title: '#c' }
    await subscribe(db(), place, { platforms: ['codeforces'] }, Date.now())
    const state = { type: 3, name: 'state', value: 'on' }
    const refused = await discord('rankupdates', [channelOption(), state])
    expect(refused.text).toMatch(/^Only members who may manage #contests/)
    expect((await findDestination(db(), place))!.rankUpdates).toBe(false)

    const on = await discord('rankupdates', [channelOption(), state], { permissions: '16' })
    expect(on.text).toMatch(/^Rank updates on/)
    expect((await findDestination(db(), place))!.rankUpdates).toBe(true)
    const settings = await discord('settings', [channelOption()])
    expect(settings.text).toContain('Rank updates: members’ results after each contest.')

    const off = await discord('rankupdates', [channelOption(), { ...state, value: 'off' }], {
      permissions: '16',
    })
    expect(off.text).toBe('Rank updates off in #contests.')
    expect((await findDestination(db(), place))!.rankUpdates).toBe(false)
  })

  it('proves a Discord member’s handle with a token told privately, checked when run again', async () => {
    // Without rank updates the channel takes no members.
    const d = await discordChannel(CHANNEL, false)
    expect((await handle('codeforces', 'kestrel_09')).text).toMatch(/no rank updates/)
    await setRankUpdates(db(), d, true, Date.now())

    const asked = await handle('codeforces', 'kestrel_09')
    expect(asked.ephemeral).toBe(true)
    const token = /(cas-[a-z2-7]{10})/.exec(asked.text)![1]
    expect(asked.text).toContain('First name')
    expect(asked.text).toContain('/contests handle platform:codeforces handle:kestrel_09')
    expect(await membersOf(d.id)).toEqual([
      { memberId: ADA, handle: 'kestrel_09', state: 'UNPROVEN', userId: null },
    ])

    // The profile does not hold it yet: the same token is asked for again.
    await profile('kestrel_09', 'Kestrel_09', 'Ada')
    const early = await handle('codeforces', 'kestrel_09')
    expect(early.text).toContain(`The token ${token} is not in the public profile`)

    await profile('kestrel_09', 'Kestrel_09', `Ada ${token}`)
    const proven = await handle('codeforces', 'kestrel_09')
    expect(proven.text).toBe(
      "Proven: Kestrel_09's results on Codeforces appear in this chat's rank posts.",
    )
    // In the judge's spelling.
    expect(await membersOf(d.id)).toEqual([
      { memberId: ADA, handle: 'Kestrel_09', state: 'PROVEN', userId: null },
    ])
    expect((await handle('codeforces')).text).toBe(
      'Your handles here: Codeforces Kestrel_09 (proven).',
    )

    // Another member's token for the same handle, proven: whoever controls the profile holds it.
    const bobAsked = await discord(
      'handle',
      [
        { type: 3, name: 'platform', value: 'codeforces' },
        { type: 3, name: 'handle', value: 'Kestrel_09' },
      ],
      { member: BOB },
    )
    const bobToken = /(cas-[a-z2-7]{10})/.exec(bobAsked.text)![1]
    await profile('Kestrel_09', 'Kestrel_09', bobToken)
    await discord(
      'handle',
      [
        { type: 3, name: 'platform', value: 'codeforces' },
        { type: 3, name: 'handle', value: 'Kestrel_09' },
      ],
      { member: BOB },
    )
    expect(await membersOf(d.id)).toEqual([
      { memberId: BOB, handle: 'Kestrel_09', state: 'PROVEN', userId: null },
    ])

    const removed = await discord(
      'handle',
      [
        { type: 3, name: 'platform', value: 'codeforces' },
        { type: 5, name: 'remove', value: true },
      ],
      { member: BOB },
    )
    expect(removed.text).toBe('Removed: your results are no longer posted here.')
    expect(await membersOf(d.id)).toEqual([])
  })

  it('runs /rankupdates for a Telegram group’s administrators and /handle for its members', async () => {
    const group = { id: -1_003_000_000_001, type: 'supergroup', title: 'CP Club' }
    let update = 70_000
    const say = async (text: string, fromId: number, extra: object = {}) => {
      const before = (await standIn.requests(SEND_PATH)).length
      const res = await api('POST', '/telegram/webhook', {
        body: {
          update_id: ++update,
          message: {
            message_id: update,
            date: 0,
            chat: group,
            from: { id: fromId },
            text,
            ...extra,
          },
        },
        bindings: testEnv(),
        headers: { 'X-Telegram-Bot-Api-Secret-Token': PROVIDERS.TELEGRAM_WEBHOOK_SECRET! },
      })
      expect(res.status).toBe(200)
      return (await standIn.requests(SEND_PATH))
        .slice(before)
        .map((r) => JSON.parse(r.body) as { chat_id: string; text: string })
    }
    const place = { channel: 'telegram' as const, chatId: String(group.id), title: 'CP Club' }
    await subscribe(db(), place, { platforms: ['codeforces'] }, Date.now())
    expect((await say('/rankupdates on', 501))[0].text).toBe(
      'Only an administrator of this group can change its rank updates.',
    )
    await standIn.script({
      method: 'POST',
      pathPrefix: MEMBER_PATH,
      responses: [{ status: 200, body: { ok: true, result: { status: 'administrator' } } }],
    })
    expect((await say('/rankupdates on', 501))[0].text).toMatch(/^Rank updates on/)
    const d = (await findDestination(db(), place))!
    expect(d.rankUpdates).toBe(true)

    // Grace's Telegram is linked to an account that proved quokka: proven at once.
    const grace = await createUser()
    await env.DB.prepare('UPDATE users SET telegram_chat_id = ?1 WHERE id = ?2')
      .bind('502', grace.user.id)
      .run()
    await linkHandle(grace.user.id, 'codeforces', 'quokka')
    const [linked] = await say('/handle codeforces QUOKKA', 502)
    expect(linked).toMatchObject({
      chat_id: String(group.id),
      // Bot API HTML: the apostrophes escaped.
      text: 'Proven through your linked account: quokka&#39;s results on Codeforces appear in this chat&#39;s rank posts.',
    })

    // Hal has no account: the token goes to his private chat (its id is his), the group is told.
    const sent = await say('/handle codeforces lynx_dev', 503)
    expect(sent.map((m) => String(m.chat_id))).toEqual(['503', String(group.id)])
    expect(sent[0].text).toMatch(/place cas-[a-z2-7]{10} in /)
    expect(sent[1].text).toBe('I sent you the proof token in a private message.')
    expect(await membersOf(d.id)).toEqual([
      { memberId: '502', handle: 'quokka', state: 'PROVEN', userId: grace.user.id },
      { memberId: '503', handle: 'lynx_dev', state: 'UNPROVEN', userId: null },
    ])

    // Leaving the group takes the member's handles off its posts.
    await say('', 600, { text: undefined, left_chat_member: { id: 503, is_bot: false } })
    expect((await membersOf(d.id)).map((m) => m.memberId)).toEqual(['502'])
    // Deleting the account removes the registrations it held.
    expect(await deleteUser(db(), grace.user.id)).toBe(true)
    expect(await membersOf(d.id)).toEqual([])
  })
})

describe('the communities API and page', () => {
  it('show rank updates and let the owner turn them on and off', async () => {
    const owner = await createUser()
    const place = { channel: 'telegram' as const, chatId: '-1003000000009', title: 'Owned club' }
    await subscribe(db(), place, { platforms: ['codeforces'] }, Date.now())
    const code = await api('POST', '/communities/claim-codes', { token: owner.accessToken })
    expect(await redeemClaimCode(db(), code.body.code, place, Date.now())).toBe('claimed')
    const d = (await findDestination(db(), place))!

    const listed = await api('GET', '/communities', { token: owner.accessToken })
    expect(listed.body.communities[0]).toMatchObject({ id: d.id, rankUpdates: false })
    const on = await api('PATCH', `/communities/${d.id}`, {
      token: owner.accessToken,
      body: { rankUpdates: true },
    })
    expect(on.status).toBe(200)
    expect(on.body).toMatchObject({ rankUpdates: true, platforms: ['codeforces'] })
    const bad = await api('PATCH', `/communities/${d.id}`, {
      token: owner.accessToken,
      body: { rankUpdates: 'yes' },
    })
    expect(bad.status).toBe(400)
    const stranger = await createUser()
    const theirs = await api('PATCH', `/communities/${d.id}`, {
      token: stranger.accessToken,
      body: { rankUpdates: false },
    })
    expect(theirs.status).toBe(404)
    expect((await findDestination(db(), place))!.rankUpdates).toBe(true)

    // The page shows the box ticked; saved without it, rank updates are off.
    const browser = await signedInBrowser(owner)
    const opened = await browser.get('/app/communities')
    expectPage(opened, 200)
    const box = await selectOne(opened.html, `#community-${d.id}-rankUpdates`)
    expect(box.attrs.checked).toBeDefined()
    const fields = {
      platforms: ['codeforces'],
      leadTimes: '60',
      contestTypes: '',
      includeWords: '',
      excludeWords: '',
      minDuration: '',
    }
    const saved = await browser.post(`/app/communities/${d.id}`, fields, { csrf: opened.csrf })
    expect(saved.status).toBe(303)
    expect((await findDestination(db(), place))!.rankUpdates).toBe(false)
    const again = await browser.get('/app/communities')
    await browser.post(
      `/app/communities/${d.id}`,
      { ...fields, rankUpdates: 'on' },
      { csrf: again.csrf },
    )
    expect((await findDestination(db(), place))!.rankUpdates).toBe(true)
  })
})

describe('the rank post', () => {
  it('lists the members’ results once, best gains first, new titles called out', async () => {
    const d = await discordChannel()
    // Members of this channel only; Kestrel_09 is nobody's account.
    for (const [id, name] of [
      ['1000000000000000081', 'quokka'],
      ['1000000000000000082', 'Kestrel_09'],
      ['1000000000000000083', 'lynx_dev'],
      ['1000000000000000084', 'Petrichor'],
      ['1000000000000000085', 'newcomer_2026'],
    ]) {
      await member(d.id, id, name)
    }
    // sus_account is a member of another channel: never shown in this one's post.
    const other = await discordChannel(OTHER_CHANNEL)
    await member(other.id, '1000000000000000086', 'sus_account')
    const off = await discordChannel('1200000000000000703', false)
    await member(off.id, '1000000000000000087', 'quokka')

    const round = await publishedRound()
    const e = testEnv(discordBindings())
    const { deps } = testResultsDeps(e)
    const at = (await findCheck(db(), round.id))!.nextCheckAt
    // Two runs at once (a duplicate message met the check free): one post each destination.
    const outcomes = await Promise.all([
      askCheck(deps, { contestId: round.id }, at),
      askCheck(deps, { contestId: round.id }, at),
    ])
    expect(outcomes).toContain('published')
    const bodies = e.NOTIFICATIONS_QUEUE.bodies.splice(0)
    await deliver(e, bodies)
    // The same messages again, as a queue redelivers them.
    await deliver(e, bodies)

    const [post, ...more] = await posts()
    expect(more).toEqual([])
    expect(post.allowed_mentions).toEqual({ parse: [] })
    const [embed] = post.embeds
    expect(embed.title).toBe(
      'Results: Educational Codeforces Round 186 (Rated for Div. 2) (Codeforces)',
    )
    expect(embed.description.split('\n')).toEqual([
      // 0 and 364 are both Newbie: no title called out.
      '1. **newcomer\\_2026**: rank 14,377, 0 -> 364 (+364)',
      '2. **Petrichor**: rank 1, 2,094 -> 2,187 (+93), now Master',
      '3. **Kestrel\\_09**: rank 2,105, 1,587 -> 1,623 (+36), now Expert',
      '4. **quokka**: rank 212, 1,893 -> 1,921 (+28), now Candidate Master',
      '5. **lynx\\_dev**: rank 5,830, 1,912 -> 1,874 (-38), now Expert',
    ])
    const [otherPost, ...otherMore] = await posts(OTHER_CHANNEL)
    expect(otherMore).toEqual([])
    expect(otherPost.embeds[0].description).toBe(
      '1. **sus\\_account**: rank 640, 1,480 -> 1,702 (+222), now Expert',
    )
    // Rank updates off: no post there.
    expect(await posts('1200000000000000703')).toEqual([])
    expect((await postRows()).map((r) => r.status).sort()).toEqual(['SENT', 'SENT'])

    // A retried results message (its hooks run again) and a second scheduler run add nothing.
    await createRankPosts(env.DB, e.NOTIFICATIONS_QUEUE, { contest: round, first: true, now: at })
    await resultChecksJob({ ...env, RESULTS_QUEUE: recordingResultsQueue() as any }, Date.now(), [
      'codeforces',
    ])
    await deliver(e)
    expect(await posts()).toHaveLength(1)
    expect(await postRows()).toHaveLength(2)
  })

  it('lists ranks only after an unrated contest, in Telegram, once', async () => {
    const place = { channel: 'telegram' as const, chatId: '-1003000000002', title: 'CP Club' }
    await subscribe(db(), place, { platforms: ['codeforces'] }, Date.now())
    const d = (await setRankUpdates(db(), place, true, Date.now()))!
    await member(d.id, '901', 'b<o>b')
    await member(d.id, '902', 'ada')
    await member(d.id, '903', 'nobody_took_part')
    const round = await endedContest('codeforces', '2290', { name: 'Codeforces Round (Unrated)' })
    await storeResults(
      db(),
      round,
      false,
      [
        { handle: 'b<o>b', rank: 40, solved: 3 },
        { handle: 'ada', rank: 7, solved: 5 },
        { handle: 'stranger', rank: 1, solved: 6 },
      ],
      Date.now(),
    )
    const e = testEnv()
    const made = await createRankPosts(env.DB, e.NOTIFICATIONS_QUEUE, {
      contest: round,
      first: true,
      now: Date.now(),
    })
    expect(made).toEqual({ rankPostsMade: 1, rankPostsQueued: 1 })
    const bodies = e.NOTIFICATIONS_QUEUE.bodies.splice(0)
    await deliver(e, bodies)
    await deliver(e, bodies)
    const sent = (await standIn.requests(SEND_PATH)).map((r) => JSON.parse(r.body))
    expect(sent).toHaveLength(1)
    expect(sent[0].chat_id).toBe('-1003000000002')
    expect(sent[0].text.split('\n')).toEqual([
      '<b>Results: Codeforces Round (Unrated) (Codeforces), unrated</b>',
      '1. <b>ada</b>: rank 7, 5 solved',
      '2. <b>b&lt;o&gt;b</b>: rank 40, 3 solved',
    ])
  })

  it('is bounded: the top lines and how many more', () => {
    const rows = Array.from({ length: MAX_RANK_LINES + 7 }, (_, i) => ({
      handle: `h${i}`,
      rank: i + 1,
      solved: null,
      oldRating: 1500,
      newRating: 1500 + i,
    }))
    const words = rankPostWords(
      { name: 'Round', platform: 'codeforces' } as ContestRow,
      rows,
      30_000,
    )
    expect(words.lines).toHaveLength(MAX_RANK_LINES)
    expect(words.more).toBe(7)
    // Best gain first, its rank of how many took part.
    expect(words.lines[0]).toMatchObject({ n: 1, handle: `h${MAX_RANK_LINES + 6}` })
    expect(words.lines[0].words).toBe(`rank ${MAX_RANK_LINES + 7} of 30,000, 1,500 -> 1,526 (+26)`)
    // A count below a rank is no field's size: the rank stands alone.
    const cut = rankPostWords({ name: 'Round', platform: 'codeforces' } as ContestRow, rows, 5)
    expect(cut.lines[0].words).toBe(`rank ${MAX_RANK_LINES + 7}, 1,500 -> 1,526 (+26)`)
  })

  it('makes no post once rank updates are off or the member removed their handle', async () => {
    const d = await discordChannel()
    await member(d.id, ADA, 'quokka')
    const round = await publishedRound()
    await setRankUpdates(db(), d, false, Date.now())
    const e = testEnv(discordBindings())
    const { deps } = testResultsDeps(e)
    const at = (await findCheck(db(), round.id))!.nextCheckAt
    expect(await askCheck(deps, { contestId: round.id }, at)).toBe('published')
    await deliver(e)
    expect(await postRows()).toEqual([])

    // Turned on again before a contest, but the only member has removed the handle: no post.
    await setRankUpdates(db(), d, true, Date.now())
    expect(
      (await handle('codeforces', undefined, [{ type: 5, name: 'remove', value: true }])).text,
    ).toBe('Removed: your results are no longer posted here.')
    await createRankPosts(env.DB, e.NOTIFICATIONS_QUEUE, { contest: round, first: true, now: at })
    await deliver(e)
    expect(await postRows()).toEqual([])
    expect(await posts()).toEqual([])
  })
})

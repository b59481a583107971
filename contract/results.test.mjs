// The contract flow of issue 43 over HTTP: after the contest. An account links a Codeforces and an
// AtCoder handle and proves both through the judges' public profiles (user.info, the profile page's
// Affiliation) at the loopback judge stand-in; a contest of each judge ends (admin writes with past
// times); the scheduler makes their result checks and the results queue asks the judges, which
// answer "not published" first (an empty contest.ratingChanges beside finished standings, an empty
// results/json): nothing is told. Then the judges publish (the recorded answers of
// src/platforms/<id>/fixtures/results), an admin asks now, and each audience of the results (the
// personal alert by email; a Discord channel's rank post, see AUDIENCES) hears of each contest once with
// the right numbers; a second scheduler run and the same message again (as a queue redelivers it)
// add nothing. Its own service and stand-in, so no other flow's contests or mail count here.
import assert from 'node:assert/strict'
import { generateKeyPairSync, sign } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import { RUNTIME, startFlow } from './flow.mjs'
import { holds, hoursFromNow, newCredentials, verifiedAccount, waitFor } from './http.mjs'

const ADMIN_EMAIL = 'contract-results-admin@contract.example.test'
const SCHEDULER_CRON = '*/30 * * * *'
// How long the judge takes to answer a re-ask: the window in which a duplicate message meets the
// check held by the ask going on.
const SLOW_JUDGE_MS = 3_000
// Each wait has its own deadline; this bounds a step (a Codeforces ask that finds no ratings
// reads the standings 2 s later, the API's pace).
const FLOW = { timeout: 90_000 }

let standIn
let service
let api
let admin

/** A recorded answer of a judge (src/platforms/<id>/fixtures/results/<file>), as text. */
const recorded = (platform, file) =>
  readFileSync(new URL(`../src/platforms/${platform}/fixtures/results/${file}`, import.meta.url), {
    encoding: 'utf8',
  })

// --- the judge stand-in ---------------------------------------------------------------------
// The platforms' upstreams point at the provider stand-in (contractSettings), under the paths of
// src/platforms/stand-in-routes.ts; the flow scripts what each judge answers. A later script of
// the same request wins, so a judge "publishes" by being scripted again.

const CODEFORCES = '/codeforces-api'
const ATCODER = '/atcoder'

/** Scripts the stand-in's answer to GET `pathPrefix` (with `query`): JSON, or HTML for a string. */
const answer = (pathPrefix, query, body, delayMs) =>
  standIn.script({ method: 'GET', pathPrefix, query, responses: [{ status: 200, body, delayMs }] })

/** The requests the service made of `path` (exactly, before its query) carrying `query`. */
async function asked(path, query = {}) {
  const seen = await standIn.requests(path)
  return seen.filter((r) => {
    const url = new URL(r.path, standIn.url)
    return (
      url.pathname === path &&
      Object.entries(query).every(([k, v]) => url.searchParams.get(k) === v)
    )
  })
}

/**
 * One judge's side of the flow: the handle proven with its public profile, the contest that
 * ends, what the judge answers before and after publication, and the line the handle gets.
 */
function codeforcesRound() {
  const contestId = '2289'
  const published = JSON.parse(recorded('codeforces', 'rating-changes-2289.json'))
  const name = published.result[0].contestName
  // The round finished and its standings are final, but Codeforces has not rated it yet: the
  // standings a rated round shows then (phase FINISHED), as the module reads "ratings to come".
  const standings = JSON.parse(recorded('codeforces', 'standings-2290-pending.json'))
  Object.assign(standings.result.contest, { id: Number(contestId), name, phase: 'FINISHED' })
  const handle = 'Kestrel_09'
  const line = published.result.find((r) => r.handle === handle)
  return {
    platform: 'codeforces',
    handle,
    contest: { platform: 'codeforces', platformId: contestId, name, type: 'ICPC' },
    /** user.info of the handle, its first name holding `token` (or the recorded one). */
    async profile(token) {
      const info = JSON.parse(recorded('codeforces', 'user-info-kestrel.json'))
      if (token) info.result[0].firstName = token
      await answer(`${CODEFORCES}/user.info`, { handles: handle }, info)
    },
    async unpublished() {
      await answer(
        `${CODEFORCES}/contest.ratingChanges`,
        { contestId },
        { status: 'OK', result: [] },
      )
      await answer(`${CODEFORCES}/contest.standings`, { contestId }, standings)
    },
    /** The ratings published, answered after `delayMs` when given (a slow judge). */
    publish: (delayMs) =>
      answer(`${CODEFORCES}/contest.ratingChanges`, { contestId }, published, delayMs),
    /** The asks of the round's results (one ratingChanges request each). */
    asks: () => asked(`${CODEFORCES}/contest.ratingChanges`, { contestId }),
    /** Every request an unpublished ask makes: ratingChanges, then the standings' first row. */
    asksWhileUnpublished: async () =>
      Math.min(
        (await asked(`${CODEFORCES}/contest.ratingChanges`, { contestId })).length,
        (await asked(`${CODEFORCES}/contest.standings`, { contestId })).length,
      ),
    expected: {
      rank: line.rank,
      participants: published.result.length,
      oldRating: line.oldRating,
      newRating: line.newRating,
      // Codeforces' titles: 1587 is a Specialist (1400-1599), 1623 an Expert (1600-1899).
      oldTitle: 'Specialist',
      newTitle: 'Expert',
    },
  }
}

function atcoderRound() {
  const contestId = 'abc481'
  const published = JSON.parse(recorded('atcoder', 'results-abc481.json'))
  const handle = 'sakura_k'
  const line = published.find((r) => r.UserScreenName === handle)
  const page = recorded('atcoder', 'profile-sakura_k.html')
  const recordedAffiliation = 'Kyoto University &amp; CAS-3M8T6QZR'
  assert.ok(page.includes(recordedAffiliation), 'the recorded profile shows its affiliation')
  return {
    platform: 'atcoder',
    handle,
    contest: {
      platform: 'atcoder',
      platformId: contestId,
      name: published[0].ContestName,
      type: 'ABC',
    },
    /** The profile page, its Affiliation holding `token` (or the recorded one). */
    async profile(token) {
      const html = token
        ? page.replace(recordedAffiliation, `Kyoto University &amp; ${token}`)
        : page
      await answer(`${ATCODER}/users/${handle}`, { lang: 'en' }, html)
    },
    // AtCoder lists nobody until the results are out.
    unpublished: () => answer(`${ATCODER}/contests/${contestId}/results/json`, {}, []),
    publish: (delayMs) =>
      answer(`${ATCODER}/contests/${contestId}/results/json`, {}, published, delayMs),
    asks: () => asked(`${ATCODER}/contests/${contestId}/results/json`),
    asksWhileUnpublished: async () =>
      (await asked(`${ATCODER}/contests/${contestId}/results/json`)).length,
    expected: {
      rank: line.Place,
      participants: published.length,
      oldRating: line.OldRating,
      newRating: line.NewRating,
      // AtCoder's colours: 1577 is cyan (1200-1599), 1631 blue (1600-1999).
      oldTitle: 'Cyan',
      newTitle: 'Blue',
    },
  }
}

// --- the audiences ----------------------------------------------------------------------------
// Who must hear of a contest's published results, each exactly once. Every step of the flow goes
// over AUDIENCES: `prepare` before the contests end, `heard(round)` (the messages that reached it
// about the round's contest) empty while nothing is published, one each once it is, and still one
// after the repeats; `check(message, round)` reads the numbers off the message.
//
// The community rank post: a Discord channel subscribed to codeforces and atcoder with rank
// updates on, where a member registered both handles (`/contests handle`, proven by the token the
// bot tells privately, placed in the profile, checked when the command runs again); its posts are
// the channel's messages at the Discord stand-in.

const number = (n) => n.toLocaleString('en-US')
const signed = (n) => (n > 0 ? `+${number(n)}` : n < 0 ? `-${number(-n)}` : '±0')

/** The personal alert, by email (the channel every account has on from its sign-up). */
function personalAlerts() {
  let user
  return {
    name: 'the personal alert',
    get user() {
      return user
    },
    async prepare() {
      user = await verifiedAccount(api, standIn, newCredentials('results'))
    },
    async heard(round) {
      const mails = await standIn.mailsTo(user.email)
      return mails
        .map(({ message }) => message)
        .filter((m) => m.subject.includes(round.contest.name))
    },
    check(mail, round) {
      const e = round.expected
      const delta = e.newRating - e.oldRating
      // "Your result: <contest>, 1,623 (+36), now Expert"
      assert.equal(
        mail.subject,
        `Your result: ${round.contest.name}, ${number(e.newRating)} (${signed(delta)}), now ${e.newTitle}`,
      )
      const words =
        `${round.handle}: rank ${number(e.rank)} of ${number(e.participants)}, ` +
        `rating ${number(e.oldRating)} -> ${number(e.newRating)} (${signed(delta)}), ` +
        `now ${e.newTitle} (was ${e.oldTitle})`
      assert.ok(mail.text.includes(words), `"${words}" in: ${mail.text}`)
    },
  }
}

// --- Discord, signed as Discord signs interactions (contract/bots.test.mjs) -------------------
const APPLICATION_ID = '1300000000000000043'
const DISCORD_BOT_TOKEN = 'stand-in-discord-bot-token'
const GUILD_ID = '1100000000000000043'
const CHANNEL_ID = '1200000000000000043'
const MEMBER_ID = '1500000000000000043'
const keys = generateKeyPairSync('ed25519')
const publicHex = keys.publicKey
  .export({ format: 'der', type: 'spki' })
  .subarray(-32)
  .toString('hex')
let interactionSeq = 0

/** `/contests <sub>` in CHANNEL_ID by MEMBER_ID (who manages it); the deferred reply's edit. */
async function contestsCommand(sub, options, expect) {
  const id = `${1_400_000_000_000_000_430n + BigInt(++interactionSeq)}`
  const token = `contract-results-token-${id}`
  const payload = {
    type: 2,
    id,
    application_id: APPLICATION_ID,
    token,
    guild_id: GUILD_ID,
    channel_id: CHANNEL_ID,
    member: { permissions: '16', user: { id: MEMBER_ID } },
    data: {
      name: 'contests',
      options: [{ type: 1, name: sub, options }],
      resolved: {
        channels: {
          [CHANNEL_ID]: {
            id: CHANNEL_ID,
            name: 'results',
            type: 0,
            guild_id: GUILD_ID,
            permissions: '16',
          },
        },
      },
    },
  }
  const body = JSON.stringify(payload)
  const at = Math.floor(Date.now() / 1000)
  const signature = sign(null, Buffer.from(`${at}${body}`), keys.privateKey).toString('hex')
  const res = await fetch(`${service.base}/discord/interactions`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Signature-Ed25519': signature,
      'X-Signature-Timestamp': String(at),
    },
    body,
  })
  assert.equal(res.status, 200, await res.clone().text())
  assert.deepEqual(await res.json(), { type: 5, data: { flags: 64 } })
  const [edit] = await waitFor(`the reply to /contests ${sub}`, async () => {
    const edits = await standIn.requests(
      `/discord/api/v10/webhooks/${APPLICATION_ID}/${token}/messages/@original`,
    )
    return edits.length > 0 && edits
  })
  const { content } = JSON.parse(edit.body)
  assert.match(content, expect)
  return content
}

const channelOption = { type: 7, name: 'channel', value: CHANNEL_ID }
const md = (s) => s.replace(/([\\*_~`|>[\]()#-])/g, '\\$1')

/** The rank posts of a Discord channel where a member registered the rounds' handles. */
function communityPosts() {
  return {
    name: 'the community rank post',
    async prepare() {
      await contestsCommand(
        'subscribe',
        [channelOption, { type: 3, name: 'platforms', value: 'codeforces atcoder' }],
        /^Subscribed #results/,
      )
      await contestsCommand(
        'rankupdates',
        [channelOption, { type: 3, name: 'state', value: 'on' }],
        /^Rank updates on/,
      )
      for (const round of ROUNDS) {
        const options = [
          { type: 3, name: 'platform', value: round.platform },
          { type: 3, name: 'handle', value: round.handle },
        ]
        const told = await contestsCommand('handle', options, /place cas-[a-z2-7]{10} in /)
        const [token] = /cas-[a-z2-7]{10}/.exec(told)
        await round.profile(token)
        await contestsCommand('handle', options, new RegExp(`^Proven: ${round.handle}'s results`))
      }
    },
    async heard(round) {
      const posts = await standIn.requests(`/discord/api/v10/channels/${CHANNEL_ID}/messages`)
      return posts
        .map((r) => JSON.parse(r.body))
        .filter((p) => p.embeds?.[0]?.title?.includes(round.contest.name))
    },
    check(post, round) {
      const e = round.expected
      const [embed] = post.embeds
      assert.equal(
        embed.title,
        `Results: ${round.contest.name} (${round.platform === 'codeforces' ? 'Codeforces' : 'AtCoder'})`,
      )
      // The member is the channel's only one: theirs is the one line, its rank of how many.
      const of = e.participants >= e.rank ? ` of ${number(e.participants)}` : ''
      assert.equal(
        embed.description,
        `1. **${md(round.handle)}**: rank ${number(e.rank)}${of}, ` +
          `${number(e.oldRating)} -> ${number(e.newRating)} (${signed(e.newRating - e.oldRating)}), ` +
          `now ${e.newTitle}`,
      )
      assert.deepEqual(post.allowed_mentions, { parse: [] })
    },
  }
}

const personal = personalAlerts()
const AUDIENCES = [personal, communityPosts()]

const ROUNDS = []

/** Every audience's messages about every round, for a failure report. */
const everything = async () =>
  Promise.all(
    AUDIENCES.flatMap((a) =>
      ROUNDS.map(async (r) => ({
        audience: a.name,
        contest: r.contest.name,
        heard: await a.heard(r),
      })),
    ),
  )

/** The account's result notifications (CONTEST_RESULT), newest first. */
async function resultNotifications(user) {
  const res = await api.get('/notifications/notifications', { token: user.accessToken })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body.notifications.filter((n) => n.type === 'CONTEST_RESULT')
}

/** The admin's "ask now" of a contest's results. */
async function askNow(round) {
  const res = await api.post(`/contests/${round.id}/results/check`, undefined, {
    token: admin.accessToken,
  })
  assert.equal(res.status, 202, JSON.stringify(res.body))
  return res.body
}

describe(`contract results (${RUNTIME})`, () => {
  const { noted } = startFlow({
    name: 'results',
    admin: { email: ADMIN_EMAIL, name: 'Contract Results Admin' },
    settings: ({ url }) => ({
      DISCORD_APPLICATION_ID: APPLICATION_ID,
      DISCORD_PUBLIC_KEY: publicHex,
      DISCORD_BOT_TOKEN,
      DISCORD_API_URL: `${url}/discord/api/v10`,
    }),
    ready(flow) {
      ;({ standIn, service, api, admin } = flow)
      assert.equal(admin.user.role, 'admin')
      ROUNDS.push(codeforcesRound(), atcoderRound())
    },
  })

  test(
    'a Codeforces and an AtCoder handle are linked, and proven by the token in their profiles',
    FLOW,
    noted(async () => {
      for (const audience of AUDIENCES) await audience.prepare()
      const { user } = personal
      for (const round of ROUNDS) {
        const linked = await api.post(
          '/users/handles',
          { platform: round.platform, handle: round.handle },
          { token: user.accessToken },
        )
        assert.equal(linked.status, 201, JSON.stringify(linked.body))
        assert.equal(linked.body.state, 'unproven')
        const { token } = linked.body.proof
        assert.match(token, /^cas-[a-z2-7]{10}$/)

        // The profile as recorded holds another account's token: not proven.
        await round.profile()
        const early = await api.post(`/users/handles/${linked.body.id}/verify`, undefined, {
          token: user.accessToken,
        })
        assert.equal(early.status, 422, JSON.stringify(early.body))
        assert.match(early.body.message, new RegExp(token))

        await round.profile(token)
        const proven = await api.post(`/users/handles/${linked.body.id}/verify`, undefined, {
          token: user.accessToken,
        })
        assert.equal(proven.status, 200, JSON.stringify(proven.body))
        assert.equal(proven.body.state, 'proven')
        assert.equal(proven.body.handle, round.handle)
        assert.equal(proven.body.proof, null)
      }
      const listed = await api.get('/users/handles', { token: user.accessToken })
      assert.deepEqual(
        listed.body.handles.map((h) => [h.platform, h.handle, h.state]),
        ROUNDS.map((r) => [r.platform, r.handle, 'proven']),
      )
    }),
  )

  test(
    'the contests end; while the judges have not published, the queue asks and nothing is told',
    FLOW,
    noted(async () => {
      for (const round of ROUNDS) {
        await round.unpublished()
        // Ended an hour ago: past the first ask's 10 minutes, within the 2 days checks are made.
        const res = await api.post(
          '/contests',
          { ...round.contest, startTime: hoursFromNow(-3), endTime: hoursFromNow(-1) },
          { token: admin.accessToken },
        )
        assert.equal(res.status, 201, JSON.stringify(res.body))
        round.id = res.body.id
      }
      await service.fireCron(SCHEDULER_CRON)
      for (const round of ROUNDS) {
        await waitFor(
          `the results of ${round.contest.name} asked while unpublished`,
          async () => (await round.asksWhileUnpublished()) >= 1,
          { timeoutMs: 30_000 },
        )
      }
      await holds('nothing told while unpublished', async () => {
        const heard = await everything()
        return heard.every((h) => h.heard.length === 0)
      })
      assert.deepEqual(await resultNotifications(personal.user), [])
      // The checks wait on the backoff (10 minutes after an unanswered ask): a run now asks none.
      const before = await Promise.all(ROUNDS.map(async (r) => (await r.asks()).length))
      await service.fireCron(SCHEDULER_CRON)
      await holds('no ask before the backoff’s time', async () => {
        const now = await Promise.all(ROUNDS.map(async (r) => (await r.asks()).length))
        return now.every((n, i) => n === before[i])
      })
    }),
  )

  test(
    'once the judges publish, every audience hears of each contest once, with rank and rating',
    FLOW,
    noted(async () => {
      for (const round of ROUNDS) {
        await round.publish()
        const check = await askNow(round)
        assert.equal(check.state, 'WAITING')
        assert.equal(check.contestId, round.id)
      }
      for (const audience of AUDIENCES) {
        for (const round of ROUNDS) {
          const [message] = await waitFor(
            `${audience.name} of ${round.contest.name}`,
            async () => {
              const heard = await audience.heard(round)
              return heard.length > 0 && heard
            },
            { timeoutMs: 30_000, describe: everything },
          )
          audience.check(message, round)
        }
      }
      await holds('each audience told once of each contest', async () => {
        const heard = await everything()
        return heard.every((h) => h.heard.length === 1)
      })
      const notes = await resultNotifications(personal.user)
      assert.deepEqual(notes.map((n) => n.contestId).sort(), ROUNDS.map((r) => r.id).sort())
    }),
  )

  test(
    'a second scheduler run and the same message again add nothing',
    FLOW,
    noted(async () => {
      const before = await Promise.all(ROUNDS.map(async (r) => (await r.asks()).length))
      // Published: the checks are next due a day later, so the scheduler queues none of them.
      await service.fireCron(SCHEDULER_CRON)
      // The check due again with its rows stored and told: the state a message retried after its
      // hooks ran finds. Its ask finds the same rows and tells nothing. While it waits on the
      // judge (slow this time), the same message comes again, as a queue redelivers it: the
      // check is held, so it asks nothing.
      for (const [i, round] of ROUNDS.entries()) {
        await round.publish(SLOW_JUDGE_MS)
        const check = await askNow(round)
        assert.equal(check.state, 'PUBLISHED')
        assert.equal(check.participants, round.expected.participants)
        await waitFor(
          `${round.contest.name} asked again`,
          async () => (await round.asks()).length > before[i],
          { timeoutMs: 30_000 },
        )
        await askNow(round)
      }
      await service.fireCron(SCHEDULER_CRON)
      // Past the slow judge's answer, so whatever the last ask does is done.
      await holds(
        'still once each',
        async () => {
          const heard = await everything()
          return heard.every((h) => h.heard.length === 1)
        },
        { forMs: SLOW_JUDGE_MS + 2_500 },
      )
      assert.equal((await resultNotifications(personal.user)).length, ROUNDS.length)
      // Made due once, each check asked its judge once whatever the messages.
      const asks = await Promise.all(ROUNDS.map(async (r) => (await r.asks()).length))
      assert.deepEqual(
        asks,
        before.map((n) => n + 1),
      )
    }),
  )
})

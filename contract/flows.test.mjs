// The HTTP contract: one real flow per area, spoken over HTTP only to a running service (the
// runtime named by CONTRACT_RUNTIME, `workers` unless set) whose providers and platforms are the
// loopback stand-in. The areas: a provider outage retried by the queue, catalogue caching, search,
// sign-up and sessions, the profile, scheduled email reminders, webhooks, calendar feeds (public and
// private), follow and mute, Discord and Slack reminders, sign-in limits and the contact form. Flows run one
// after another against one fresh service; the transient-failure flow starts first and is finished
// last, so its one-minute queue retry overlaps the others. Contests within the scheduler's window
// are never on the default platforms (Codeforces, LeetCode) and never remind a user whose flow is
// still counting, so every flow's counts stay its own.
import assert from 'node:assert/strict'
import { createServer, get } from 'node:http'
import { describe, test } from 'node:test'
import { gunzipSync } from 'node:zlib'
import { Webhook } from 'standardwebhooks'
import { RUNTIME, startFlow } from './flow.mjs'
import {
  client,
  holds,
  hoursFromNow,
  mailedCode,
  newCredentials,
  verifiedAccount,
  waitFor,
} from './http.mjs'

const ADMIN_EMAIL = 'contract-admin@contract.example.test'
// A second bootstrap address, which the squatting flow signs up with before its owner does.
const SQUATTED_ADMIN_EMAIL = 'contract-squatted-admin@contract.example.test'
const CONTACT_EMAIL = 'operators@contract.example.test'
const SCHEDULER_CRON = '*/30 * * * *'
// The notifications queue retries a transient failure after 60 s (then 300 and 900 s).
const FIRST_RETRY_MS = 60_000

let standIn
let service
let api
let admin

// Every wait inside a flow has its own deadline; this one bounds a flow as a whole.
const FLOW = { timeout: 60_000 }

let contestSeq = 0

/** Adds a contest through the admin API; `startsInHours` from now, lasting two hours. */
async function addContest(fields, startsInHours) {
  const res = await api.post(
    '/contests',
    {
      platformId: `contract-${++contestSeq}`,
      startTime: hoursFromNow(startsInHours),
      endTime: hoursFromNow(startsInHours + 2),
      ...fields,
    },
    { token: admin.accessToken },
  )
  assert.equal(res.status, 201, JSON.stringify(res.body))
  return res.body
}

/** The user's notifications, newest first. */
async function notificationsOf(user) {
  const res = await api.get('/notifications/notifications', { token: user.accessToken })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body.notifications
}

/**
 * The VEVENTs of an iCalendar text, each as its properties (name to value, parameters dropped)
 * with its VALARMs as `alarms`; lines are unfolded first (RFC 5545, section 3.1).
 */
function eventsOf(ics) {
  const lines = ics.replace(/\r\n[ \t]/g, '').split('\r\n')
  const events = []
  let event
  let alarm
  for (const line of lines) {
    if (line === 'BEGIN:VEVENT') {
      event = { alarms: [] }
      events.push(event)
    } else if (line === 'END:VEVENT') {
      event = undefined
    } else if (line === 'BEGIN:VALARM') {
      alarm = {}
      event.alarms.push(alarm)
    } else if (line === 'END:VALARM') {
      alarm = undefined
    } else if (event) {
      const colon = line.indexOf(':')
      const target = alarm ?? event
      target[line.slice(0, colon).split(';')[0]] = line.slice(colon + 1)
    }
  }
  return events
}

describe(`contract (${RUNTIME})`, () => {
  const { noted } = startFlow({
    name: 'flows',
    // The bootstrap address becomes an admin once it is verified, not at sign-up.
    admin: { email: ADMIN_EMAIL, name: 'Contract Admin' },
    adminEmails: `${ADMIN_EMAIL},${SQUATTED_ADMIN_EMAIL}`,
    contactEmail: CONTACT_EMAIL,
    ready(flow) {
      ;({ standIn, service, api, admin } = flow)
      assert.equal(admin.user.role, 'admin')
    },
  })

  // Started first because the queue's retry takes a minute; finished by the last test. Nothing
  // else sends mail until its first attempt is over, so the scripted 500 meets this email only.
  let transient

  test(
    'a transient email provider failure (500) leaves the notification RETRYING',
    FLOW,
    noted(async () => {
      const user = await verifiedAccount(api, standIn, newCredentials('transient'))
      const contest = await addContest(
        { name: 'Transient Starters', platform: 'codechef', type: 'STARTERS' },
        240,
      )
      // One refusal, then Resend's usual answer for this and every later email.
      await standIn.script({
        method: 'POST',
        pathPrefix: '/resend/emails',
        responses: [
          { status: 500, body: { message: 'scripted outage' } },
          { status: 200, body: { id: 're_after_outage' } },
        ],
      })
      const queued = await api.post(
        '/notifications/emails/contest-reminder',
        { contestId: contest.id, userIds: [user.id] },
        { token: admin.accessToken },
      )
      assert.equal(queued.status, 202, JSON.stringify(queued.body))
      assert.equal(queued.body.queued, 1)

      const isReminder = ({ message }) => message.subject.includes('Transient Starters')
      const reminders = async () => (await standIn.mailsTo(user.email)).filter(isReminder)
      const [first] = await waitFor('the first send attempt', async () => {
        const found = await reminders()
        return found.length > 0 && found
      })
      const notification = await waitFor(
        'the notification to be RETRYING',
        async () => {
          const [n] = await notificationsOf(user)
          return n?.status === 'RETRYING' && n
        },
        { describe: async () => (await notificationsOf(user))[0] },
      )
      assert.equal(notification.contestId, contest.id)
      assert.deepEqual(
        notification.deliveryStatus.map(({ channel, status, retryCount }) => ({
          channel,
          status,
          retryCount,
        })),
        [{ channel: 'email', status: 'RETRYING', retryCount: 1 }],
      )
      assert.match(notification.deliveryStatus[0].error, /500/)

      // Waits in the background while the other flows run; the last test takes its answer.
      const delivered = waitFor(
        'the queue to retry the email',
        async () => {
          const found = await reminders()
          if (found.length < 2) return false
          const [n] = await notificationsOf(user)
          return n.status === 'SENT' && { mails: found, notification: n }
        },
        { timeoutMs: first.at + FIRST_RETRY_MS + 30_000 - Date.now(), intervalMs: 500 },
      )
      delivered.catch(() => {})
      transient = { user, first, delivered, reminders }
    }),
  )

  test(
    'catalogue reads carry an ETag, answer 304, and change after an admin write',
    FLOW,
    noted(async () => {
      const first = await api.get('/contests/upcoming')
      assert.equal(first.status, 200)
      const etag = first.headers.get('etag')
      assert.ok(etag, 'an ETag')
      assert.match(first.headers.get('cache-control') ?? '', /public/)

      const again = await api.get('/contests/upcoming', { headers: { 'If-None-Match': etag } })
      assert.equal(again.status, 304)
      assert.equal(again.body, undefined)
      assert.equal(again.headers.get('etag'), etag)

      const added = await addContest(
        { name: 'Contract Codeforces Round', platform: 'codeforces', type: 'CF' },
        24 * 7,
      )
      const changed = await api.get('/contests/upcoming', { headers: { 'If-None-Match': etag } })
      assert.equal(changed.status, 200, 'a write makes the cached list stale')
      assert.notEqual(changed.headers.get('etag'), etag)
      assert.ok(changed.body.some((c) => c.id === added.id))

      const detail = await api.get(`/contests/${added.id}`)
      assert.equal(detail.status, 200)
      assert.equal(detail.body.name, 'Contract Codeforces Round')
      const renamed = await api.patch(
        `/contests/${added.id}`,
        { name: 'Contract Codeforces Round (Div. 2)' },
        { token: admin.accessToken },
      )
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body))
      const fresh = await api.get(`/contests/${added.id}`, {
        headers: { 'If-None-Match': detail.headers.get('etag') },
      })
      assert.equal(fresh.status, 200)
      assert.equal(fresh.body.name, 'Contract Codeforces Round (Div. 2)')
    }),
  )

  test(
    'search finds contests by a word of their name or description',
    FLOW,
    noted(async () => {
      const quasar = await addContest(
        {
          name: 'Quasar Invitational',
          platform: 'leetcode',
          type: 'WEEKLY',
          description: 'Problems about nebulae',
        },
        24 * 9,
      )
      const byName = await api.get('/contests/search?q=quasar')
      assert.equal(byName.status, 200)
      assert.deepEqual(
        byName.body.map((c) => c.id),
        [quasar.id],
      )
      const byDescription = await api.get('/contests/search?q=nebulae')
      assert.deepEqual(
        byDescription.body.map((c) => c.id),
        [quasar.id],
      )
      const none = await api.get('/contests/search?q=zyzzyva')
      assert.deepEqual(none.body, [])
      const missing = await api.get('/contests/search')
      assert.equal(missing.status, 400)
    }),
  )

  test(
    'sign-up mails a code that verifies the address; sign-in and refresh',
    FLOW,
    noted(async () => {
      const me = newCredentials('account')
      const signup = await api.post('/auth/signup', me)
      assert.equal(signup.status, 201, JSON.stringify(signup.body))
      assert.equal(signup.body.user.emailVerified, false)
      assert.equal(signup.body.emailVerification.sent, true)

      const code = await mailedCode(standIn, me.email)
      const wrong = await api.post('/auth/verify-email', {
        email: me.email,
        code: code === '000000' ? '111111' : '000000',
      })
      assert.equal(wrong.status, 400)
      const verified = await api.post(
        '/auth/verify-email',
        { email: me.email, code },
        { token: signup.body.accessToken },
      )
      assert.equal(verified.status, 200, JSON.stringify(verified.body))
      assert.equal(verified.body.user.emailVerified, true)

      const badPassword = await api.post('/auth/signin', { email: me.email, password: 'not-it' })
      assert.equal(badPassword.status, 401)
      const signin = await api.post('/auth/signin', { email: me.email, password: me.password })
      assert.equal(signin.status, 200, JSON.stringify(signin.body))
      assert.ok(signin.body.accessToken && signin.body.refreshToken)

      const refreshed = await api.post('/auth/refresh', { refreshToken: signin.body.refreshToken })
      assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body))
      assert.notEqual(refreshed.body.refreshToken, signin.body.refreshToken)
      const profile = await api.get('/users/profile', { token: refreshed.body.accessToken })
      assert.equal(profile.status, 200)
      assert.equal(profile.body.email, me.email)
      // A refresh token is spent by its use.
      const reused = await api.post('/auth/refresh', { refreshToken: signin.body.refreshToken })
      assert.equal(reused.status, 401)
    }),
  )

  test(
    'an address squatted before its owner proves it gives the squatter nothing, admin included',
    FLOW,
    noted(async () => {
      // (1) The attacker signs up with the owner's (bootstrap admin) address: role user.
      const attacker = { ...newCredentials('squatter'), email: SQUATTED_ADMIN_EMAIL }
      const signup = await api.post('/auth/signup', attacker)
      assert.equal(signup.status, 201, JSON.stringify(signup.body))
      assert.equal(signup.body.user.role, 'user')
      const linked = await api.post('/users/calendar', undefined, {
        token: signup.body.accessToken,
      })
      assert.equal(linked.status, 403, 'an unproven account attaches nothing')
      // (2) The owner proves the address with the mailed code alone.
      const code = await mailedCode(standIn, attacker.email)
      const owner = await api.post('/auth/verify-email', { email: attacker.email, code })
      assert.equal(owner.status, 200, JSON.stringify(owner.body))
      assert.equal(owner.body.user.role, 'user', 'a bare proof grants no bootstrap role')
      // (3) The attacker's password and refresh token open nothing.
      const signin = await api.post('/auth/signin', {
        email: attacker.email,
        password: attacker.password,
      })
      assert.equal(signin.status, 401)
      const refreshed = await api.post('/auth/refresh', {
        refreshToken: signup.body.refreshToken,
      })
      assert.equal(refreshed.status, 401)
      const stats = await api.get('/admin/stats', { token: signup.body.accessToken })
      assert.equal(stats.status, 403)
      // The owner chooses a password with a reset, which grants the bootstrap role.
      const forgot = await api.post('/auth/forgot-password', { email: attacker.email })
      assert.equal(forgot.status, 200)
      const resetCode = await waitFor('the reset code', async () => {
        const mails = await standIn.mailsTo(attacker.email)
        return mails.length > 1 && mails.at(-1).message.text?.match(/\b(\d{6})\b/)?.[1]
      })
      const newPassword = `pw-${crypto.randomUUID()}`
      const reset = await api.post('/auth/reset-password', {
        email: attacker.email,
        code: resetCode,
        newPassword,
      })
      assert.equal(reset.status, 200, JSON.stringify(reset.body))
      const ownerIn = await api.post('/auth/signin', {
        email: attacker.email,
        password: newPassword,
      })
      assert.equal(ownerIn.body.user.role, 'admin')
      const ownerStats = await api.get('/admin/stats', { token: ownerIn.body.accessToken })
      assert.equal(ownerStats.status, 200)
    }),
  )

  test(
    'a profile update changes name and preferences',
    FLOW,
    noted(async () => {
      const user = await verifiedAccount(api, standIn, newCredentials('profile'))
      const update = {
        name: 'Ada Contract',
        preferences: {
          platforms: ['codechef', 'atcoder'],
          alertFrequency: 'daily',
          notificationChannels: { email: true },
          notifyBefore: 6,
          timezone: 'Asia/Kolkata',
        },
      }
      const res = await api.put('/users/profile', update, { token: user.accessToken })
      assert.equal(res.status, 200, JSON.stringify(res.body))
      const profile = await api.get('/users/profile', { token: user.accessToken })
      assert.equal(profile.status, 200)
      assert.equal(profile.body.name, 'Ada Contract')
      assert.deepEqual(profile.body.preferences, {
        platforms: ['codechef', 'atcoder'],
        alertFrequency: 'daily',
        contestTypes: [],
        notificationChannels: {
          email: true,
          whatsapp: false,
          push: false,
          telegram: false,
          discord: false,
          slack: false,
        },
        notifyBefore: 6,
        // Beyond the spec: notifyBefore is the one lead time, in minutes; no quiet hours or filters.
        leadTimes: [360],
        quietHours: null,
        filters: { minDuration: null, maxDuration: null, excludeWords: [] },
        timezone: 'Asia/Kolkata',
      })
      const readOnly = await api.put(
        '/users/profile',
        { role: 'admin' },
        { token: user.accessToken },
      )
      assert.equal(readOnly.status, 400)
    }),
  )

  test(
    'a due reminder is emailed once across two scheduler runs',
    FLOW,
    noted(async () => {
      const user = await verifiedAccount(api, standIn, newCredentials('reminder'))
      // Only this user follows AtCoder, so the scheduler has exactly one reminder to make.
      const prefs = await api.put(
        '/users/profile',
        { preferences: { platforms: ['atcoder'], notifyBefore: 24 } },
        { token: user.accessToken },
      )
      assert.equal(prefs.status, 200, JSON.stringify(prefs.body))
      const contest = await addContest(
        { name: 'Contract Beginner Contest', platform: 'atcoder', type: 'ABC' },
        3,
      )

      await service.fireCron(SCHEDULER_CRON)
      await service.fireCron(SCHEDULER_CRON)

      const isReminder = ({ message }) => message.subject.includes('Contract Beginner Contest')
      const reminders = async () => (await standIn.mailsTo(user.email)).filter(isReminder)
      const [mail] = await waitFor('the reminder email', async () => {
        const found = await reminders()
        return found.length > 0 && found
      })
      assert.match(mail.message.text ?? mail.message.html, /Contract Beginner Contest/)
      const notification = await waitFor(
        'the reminder to be SENT',
        async () => {
          const list = await notificationsOf(user)
          return list.length === 1 && list[0].status === 'SENT' && list[0]
        },
        { describe: () => notificationsOf(user) },
      )
      assert.equal(notification.type, 'CONTEST_REMINDER')
      assert.equal(notification.contestId, contest.id)
      await holds('one reminder email', async () => (await reminders()).length === 1)
      assert.equal((await notificationsOf(user)).length, 1)
    }),
  )

  test(
    'a webhook is delivered to a loopback receiver, signed per Standard Webhooks',
    FLOW,
    noted(async () => {
      const received = []
      const receiver = createServer((req, res) => {
        const chunks = []
        req.on('data', (chunk) => chunks.push(chunk))
        req.on('end', () => {
          received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
          res.writeHead(204).end()
        })
      })
      await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve))
      try {
        const url = `http://127.0.0.1:${receiver.address().port}/hooks/contests`
        const made = await api.post(
          '/webhooks',
          { url, events: ['contest.created'], description: 'contract receiver' },
          { token: admin.accessToken },
        )
        assert.equal(made.status, 201, JSON.stringify(made.body))
        assert.match(made.body.secret, /^whsec_/)

        const contest = await addContest(
          { name: 'Contract Hook Cup', platform: 'codeforces', type: 'ICPC' },
          24 * 8,
        )
        const delivery = await waitFor('the webhook delivery', () =>
          received.find((r) => JSON.parse(r.body).data?.id === contest.id),
        )
        const verifier = new Webhook(made.body.secret)
        const payload = verifier.verify(delivery.body, delivery.headers)
        assert.equal(payload.type, 'contest.created')
        assert.equal(payload.id, delivery.headers['webhook-id'])
        assert.equal(payload.data.name, 'Contract Hook Cup')
        assert.throws(() =>
          verifier.verify(delivery.body.replace('Hook', 'Hack'), delivery.headers),
        )

        const recorded = await waitFor('the delivery to be recorded as succeeded', async () => {
          const res = await api.get(`/webhooks/${made.body.id}/deliveries`, {
            token: admin.accessToken,
          })
          return res.body.data?.find((d) => d.status === 'succeeded')
        })
        assert.equal(recorded.eventType, 'contest.created')
        const removed = await api.delete(`/webhooks/${made.body.id}`, { token: admin.accessToken })
        assert.equal(removed.status, 200)
      } finally {
        receiver.closeAllConnections()
        await new Promise((resolve) => receiver.close(resolve))
      }
    }),
  )

  test(
    'the public and private calendar feeds list contests; the private one carries lead-time alarms',
    FLOW,
    noted(async () => {
      // Ten days out: in every feed's window, beyond the scheduler's, so no flow gets a reminder.
      const contest = await addContest(
        { name: 'Contract Calendar Round', platform: 'codeforces', type: 'CF' },
        24 * 10,
      )
      const uid = `codeforces-${encodeURIComponent(contest.platformId)}@contest-alert-service`

      const feed = await api.get('/contests/calendar.ics?platform=codeforces')
      assert.equal(feed.status, 200)
      assert.match(feed.headers.get('content-type') ?? '', /^text\/calendar/)
      const event = eventsOf(feed.body).find((e) => e.UID === uid)
      assert.ok(event, `the public feed lists ${uid}`)
      assert.equal(event.SUMMARY, 'Contract Calendar Round')
      assert.equal(event.alarms.length, 0, 'the public feed has no alarms')
      const etag = feed.headers.get('etag')
      assert.ok(etag, 'an ETag')
      const again = await api.get('/contests/calendar.ics?platform=codeforces', {
        headers: { 'If-None-Match': etag },
      })
      assert.equal(again.status, 304)

      const user = await verifiedAccount(api, standIn, newCredentials('calendar'))
      const prefs = await api.put(
        '/users/profile',
        { preferences: { platforms: ['codeforces'], leadTimes: [10, 60, 1440] } },
        { token: user.accessToken },
      )
      assert.equal(prefs.status, 200, JSON.stringify(prefs.body))
      const made = await api.post('/users/calendar', undefined, { token: user.accessToken })
      assert.equal(made.status, 201, JSON.stringify(made.body))
      assert.match(made.body.webcalUrl, /^webcal:\/\//)
      // The address is built on APP_URL, which the suite leaves unset; its path is what matters.
      const path = new URL(made.body.url).pathname
      assert.match(path, /^\/calendar\/[\w-]+\.ics$/)

      const mine = await api.get(path)
      assert.equal(mine.status, 200)
      assert.match(mine.headers.get('content-type') ?? '', /^text\/calendar/)
      const events = eventsOf(mine.body)
      const own = events.find((e) => e.UID === uid)
      assert.ok(own, `the private feed lists ${uid}`)
      // The catalogue holds the other flows' CodeChef, LeetCode and AtCoder contests by now.
      assert.deepEqual(
        events.filter((e) => !e.UID.startsWith('codeforces-')),
        [],
        'only the user’s platform',
      )
      assert.deepEqual(own.alarms.map((a) => a.TRIGGER).sort(), ['-P1D', '-PT10M', '-PT1H'])
      assert.ok(own.alarms.every((a) => a.ACTION === 'DISPLAY'))

      const revoked = await api.delete('/users/calendar', { token: user.accessToken })
      assert.equal(revoked.status, 204)
      const gone = await api.get(path)
      assert.equal(gone.status, 404)
    }),
  )

  test(
    'a followed contest off the user’s platforms is reminded; a muted one is not',
    FLOW,
    noted(async () => {
      // CodeChef is followed only by the profile flow's digest reader, who gets no reminders.
      const follower = await verifiedAccount(api, standIn, newCredentials('follower'))
      const muter = await verifiedAccount(api, standIn, newCredentials('muter'))
      for (const [user, platforms] of [
        [follower, ['atcoder']],
        [muter, ['codechef']],
      ]) {
        const res = await api.put(
          '/users/profile',
          { preferences: { platforms, notifyBefore: 24 } },
          { token: user.accessToken },
        )
        assert.equal(res.status, 200, JSON.stringify(res.body))
      }
      const followed = await addContest(
        { name: 'Contract Followed Starters', platform: 'codechef', type: 'STARTERS' },
        4,
      )
      const muted = await addContest(
        { name: 'Contract Muted Starters', platform: 'codechef', type: 'STARTERS' },
        5,
      )
      const follow = await api.put(
        `/users/contests/${followed.id}/subscription`,
        { mode: 'follow' },
        { token: follower.accessToken },
      )
      assert.equal(follow.status, 200, JSON.stringify(follow.body))
      assert.equal(follow.body.mode, 'follow')
      const mute = await api.put(
        `/users/contests/${muted.id}/subscription`,
        { mode: 'mute' },
        { token: muter.accessToken },
      )
      assert.equal(mute.status, 200, JSON.stringify(mute.body))
      assert.equal(mute.body.mode, 'mute')

      await service.fireCron(SCHEDULER_CRON)

      const about = (user, name) => async () =>
        (await standIn.mailsTo(user.email)).filter(({ message }) => message.subject.includes(name))
      const followerMail = about(follower, 'Contract Followed Starters')
      const [mail] = await waitFor('the followed contest’s reminder', async () => {
        const found = await followerMail()
        return found.length > 0 && found
      })
      assert.match(mail.message.text ?? mail.message.html, /Contract Followed Starters/)
      // The muter's own platform still reminds them, so the scheduler did reach them.
      await waitFor('the muter’s reminder of the contest they kept', async () => {
        const found = await about(muter, 'Contract Followed Starters')()
        return found.length > 0
      })
      const mutedMail = about(muter, 'Contract Muted Starters')
      await holds('no reminder of the muted contest', async () => (await mutedMail()).length === 0)
      assert.equal((await followerMail()).length, 1)
      const notes = await notificationsOf(muter)
      assert.ok(notes.every((n) => n.contestId !== muted.id))
    }),
  )

  test(
    'a due reminder is posted once to the user’s Discord webhook as an embed, and to Slack as Block Kit',
    FLOW,
    noted(async () => {
      const user = await verifiedAccount(api, standIn, newCredentials('discord'))
      // Discord's shape (/api/webhooks/<snowflake>/<token>) at the stand-in, which
      // ALLOW_LOCAL_TARGETS lets through.
      const id = `${1_100_000_000_000_000_000n + BigInt(Date.now())}`
      const token = `contract_${crypto.randomUUID().replace(/-/g, '')}`
      const webhook = `/discord/api/webhooks/${id}/${token}`
      // And Slack's (/services/T…/B…/<secret>), one more account being over the suite's budget.
      const secret = `contract${crypto.randomUUID().replace(/-/g, '')}`
      const slackHook = `/slack/services/T0CONTRACT/B0CONTRACT/${secret}`
      const prefs = await api.put(
        '/users/profile',
        {
          preferences: {
            // ARC only: the reminder flow's AtCoder Beginner Contest is in the window as well.
            platforms: ['atcoder'],
            contestTypes: ['ARC'],
            notifyBefore: 24,
            discordWebhookUrl: `${standIn.url}${webhook}`,
            slackWebhookUrl: `${standIn.url}${slackHook}`,
            notificationChannels: { email: false, whatsapp: false, discord: true, slack: true },
          },
        },
        { token: user.accessToken },
      )
      assert.equal(prefs.status, 200, JSON.stringify(prefs.body))
      const profile = await api.get('/users/profile', { token: user.accessToken })
      assert.equal(profile.body.discord.webhookSet, true)
      assert.equal(profile.body.slack.webhookSet, true)
      assert.ok(!JSON.stringify(profile.body).includes(token), 'the token is never shown')
      assert.ok(!JSON.stringify(profile.body).includes(secret), 'the secret is never shown')

      await addContest({ name: 'Contract Regular Contest', platform: 'atcoder', type: 'ARC' }, 6)
      await service.fireCron(SCHEDULER_CRON)

      const posts = async () =>
        (await standIn.requests(webhook)).filter((r) => r.body.includes('Contract Regular Contest'))
      const [post] = await waitFor('the Discord post', async () => {
        const found = await posts()
        return found.length > 0 && found
      })
      assert.equal(post.method, 'POST')
      assert.match(post.path, /\?wait=true$/)
      const { embeds, allowed_mentions } = JSON.parse(post.body)
      assert.equal(embeds.length, 1)
      assert.match(`${embeds[0].title} ${embeds[0].description}`, /Contract Regular Contest/)
      assert.deepEqual(allowed_mentions, { parse: [] })
      // SENT once one channel delivered; both deliveries are awaited.
      const notification = await waitFor('both deliveries to be SENT', async () => {
        const [n] = await notificationsOf(user)
        return n?.deliveryStatus?.every((d) => d.status === 'SENT') && n
      })
      assert.deepEqual(
        notification.deliveryStatus
          .map(({ channel, status }) => ({ channel, status }))
          .sort((a, b) => a.channel.localeCompare(b.channel)),
        [
          { channel: 'discord', status: 'SENT' },
          { channel: 'slack', status: 'SENT' },
        ],
      )
      await holds('one Discord post', async () => (await posts()).length === 1)

      const slackPosts = async () =>
        (await standIn.requests(slackHook)).filter((r) =>
          r.body.includes('Contract Regular Contest'),
        )
      const [slackPost] = await slackPosts()
      assert.equal(slackPost.status, 200)
      const { text, blocks } = JSON.parse(slackPost.body)
      assert.match(text, /Contract Regular Contest/)
      // The contest's page, when it has one, is a button after these.
      assert.deepEqual(
        blocks.slice(0, 3).map((b) => b.type),
        ['header', 'section', 'context'],
      )
      await holds('one Slack post', async () => (await slackPosts()).length === 1)
    }),
  )

  test(
    'wrong passwords beyond the budget are refused 429 with rate-limit headers',
    FLOW,
    noted(async () => {
      const body = { email: 'guessed@contract.example.test', password: 'wrong-password' }
      for (let attempt = 1; attempt <= 5; attempt++) {
        const res = await api.post('/auth/signin', body)
        assert.equal(res.status, 401, `attempt ${attempt}`)
        assert.ok(res.headers.get('x-ratelimit-limit'), 'X-RateLimit-Limit on every answer')
      }
      const refused = await api.post('/auth/signin', body)
      assert.equal(refused.status, 429)
      assert.equal(refused.body.statusCode, 429)
      assert.equal(refused.headers.get('x-ratelimit-limit'), '5')
      assert.equal(refused.headers.get('x-ratelimit-remaining'), '0')
      const reset = Number(refused.headers.get('x-ratelimit-reset'))
      assert.ok(reset > Date.now() / 1000, 'X-RateLimit-Reset is a future epoch second')
      const retryAfter = Number(refused.headers.get('retry-after'))
      assert.ok(Number.isInteger(retryAfter) && retryAfter > 0, 'Retry-After in whole seconds')
    }),
  )

  test(
    'the contact form mails the operators',
    FLOW,
    noted(async () => {
      const blank = await api.post('/contact', {
        name: 'Ada',
        email: 'ada@example.test',
        subject: ' ',
        message: 'Hello',
      })
      assert.equal(blank.status, 400)
      assert.deepEqual(blank.body, { success: false, message: 'All fields are required.' })

      const res = await api.post('/contact', {
        name: 'Ada Visitor',
        email: 'ada@example.test',
        subject: 'A missing contest',
        message: 'The contract suite says hello.',
      })
      assert.equal(res.status, 200, JSON.stringify(res.body))
      assert.deepEqual(res.body, { success: true, message: 'Message sent successfully.' })
      const [mail] = await standIn.mailsTo(CONTACT_EMAIL)
      assert.ok(mail, 'a mail to the operators')
      assert.equal(mail.message.subject, '[Contest Alerts Contact] A missing contest')
      assert.equal(mail.message.reply_to, 'ada@example.test')
      assert.match(mail.message.text, /The contract suite says hello\./)
    }),
  )

  test(
    'the transient failure is retried by the queue after a minute and delivered once',
    { timeout: FIRST_RETRY_MS + 60_000 },
    noted(async (t) => {
      if (!transient) return t.skip('the first half of this flow did not run')
      const { mails, notification } = await transient.delivered
      assert.equal(mails.length, 2, 'one failed attempt and one delivered retry')
      const [first, second] = mails
      assert.ok(second.at - first.at >= FIRST_RETRY_MS - 5_000, 'the retry waited about a minute')
      // Both attempts carry the delivery's idempotency key, so Resend would send it once.
      assert.ok(first.headers['idempotency-key'])
      assert.equal(second.headers['idempotency-key'], first.headers['idempotency-key'])
      assert.equal(notification.deliveryStatus[0].status, 'SENT')
      assert.equal(notification.deliveryStatus[0].retryCount, 1)
      await holds('two attempts only', async () => (await transient.reminders()).length === 2, {
        forMs: 1_000,
      })
    }),
  )

  test(
    'a cached page goes plain to a client that names no encoding, and gzip to one that asks',
    FLOW,
    noted(async () => {
      // Raw HTTP, as curl sends it without --compressed: fetch would ask for gzip and decode it.
      const raw = (headers) =>
        new Promise((resolve, reject) => {
          get(`${service.base}/`, { headers }, (res) => {
            const chunks = []
            res.on('data', (chunk) => chunks.push(chunk))
            res.on('end', () =>
              resolve({
                encoding: res.headers['content-encoding'],
                cache: res.headers['x-cache'],
                body: Buffer.concat(chunks),
              }),
            )
          }).on('error', reject)
        })
      const page = /<h1>Programming contests<\/h1>[\s\S]*<\/html>$/
      // Read until the answer is in memory, where it keeps its gzip twin. Another flow's catalogue
      // write between the reads starts the cache over (a MISS answers plain): read again then.
      let plain
      let zipped
      for (let round = 0; round < 5; round++) {
        for (let i = 0; i < 3; i++) await raw({})
        plain = await raw({})
        zipped = await raw({ 'Accept-Encoding': 'gzip, deflate, br, zstd' })
        if (zipped.cache !== 'MISS') break
      }
      assert.equal(plain.encoding, undefined)
      assert.match(plain.body.toString(), page)
      assert.equal(zipped.encoding, 'gzip')
      assert.match(gunzipSync(zipped.body).toString(), page)
    }),
  )

  test(
    'every route answers a body one byte over its limit with 413, declared or streamed',
    FLOW,
    noted(async () => {
      // What takes a body: every operation of the API document but its GETs, and the forms of the
      // web app's public pages (kept out of the document).
      const document = (await api.get('/openapi.json')).body
      const routes = Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.entries(operations)
          .filter(([method]) => method !== 'get')
          .map(([method, operation]) => ({
            method: method.toUpperCase(),
            path: path.replace(/\{\w+\}/g, 'p-1'),
            type: Object.keys(operation.requestBody?.content ?? {})[0] ?? 'application/json',
          })),
      )
      for (const page of ['/app/signin', '/app/signup', '/app/forgot']) {
        const html = await (await fetch(`${service.base}${page}`)).text()
        for (const [form] of html.matchAll(/<form\b[^>]*>/g)) {
          if (!/method="post"/i.test(form)) continue
          const action = new URL(form.match(/action="([^"]*)"/)?.[1] ?? page, service.base)
          const path = action.pathname
          const type = 'application/x-www-form-urlencoded'
          if (!routes.some((r) => r.path === path)) routes.push({ method: 'POST', path, type })
        }
      }
      assert.ok(
        routes.some((r) => r.path === '/app/signin'),
        'the web app’s forms were found',
      )

      /** `size` bytes, declared by Content-Length or streamed in 16 KiB chunks without one. */
      async function send(route, size, streamed) {
        const bytes = new Uint8Array(size).fill(0x61)
        let at = 0
        const body = streamed
          ? new ReadableStream({
              pull(controller) {
                if (at >= size) return controller.close()
                controller.enqueue(bytes.subarray(at, (at += 16 * 1024)))
              },
            })
          : bytes
        // An admin is exempt from the general limit, so every answer is the body limit's.
        const headers = { 'Content-Type': route.type, Authorization: `Bearer ${admin.accessToken}` }
        let res
        try {
          res = await fetch(`${service.base}${route.path}`, {
            method: route.method,
            headers,
            body,
            duplex: 'half',
          })
        } catch (error) {
          // A reset connection is an answer too, and the wrong one.
          return { status: 'no answer', body: error.cause?.code ?? error.message }
        }
        const text = await res.text()
        let parsed = text
        try {
          parsed = JSON.parse(text)
        } catch {}
        return { status: res.status, body: parsed }
      }

      // A route's limit is the one its 413 names: the default one's first, else the largest one's.
      const DEFAULT_LIMIT = 64 * 1024
      const LARGEST_LIMIT = 2 * 1024 * 1024
      const MEGABYTE = 1024 * 1024
      const wrong = []
      for (const route of routes) {
        const name = `${route.method} ${route.path}`
        let refused = await send(route, DEFAULT_LIMIT + 1, false)
        if (refused.status !== 413) refused = await send(route, LARGEST_LIMIT + 1, false)
        if (route.path === '/contact') {
          // The contact form answers in its own shape (its limit, 128 KiB, is its own).
          const own = { success: false, message: 'Message is too large.' }
          for (const res of [refused, await send(route, LARGEST_LIMIT + 1, true)]) {
            if (res.status !== 413 || JSON.stringify(res.body) !== JSON.stringify(own)) {
              wrong.push(`${name}: ${res.status} ${JSON.stringify(res.body)}`)
            }
          }
          continue
        }
        const limit = Number(refused.body?.message?.match(/larger than (\d+) bytes/)?.[1])
        if (refused.status !== 413 || !limit) {
          wrong.push(`${name}: ${refused.status} ${JSON.stringify(refused.body)}`)
          continue
        }
        const expected = {
          statusCode: 413,
          message: `Request body must not be larger than ${limit} bytes`,
          error: 'Payload Too Large',
        }
        // One byte over, and a megabyte over as the finding sent: a streamed body refused half
        // read once broke the connection under wrangler dev, and the next request answered 503.
        for (const [size, streamed] of [
          [limit + 1, false],
          [limit + 1, true],
          [limit + MEGABYTE, true],
        ]) {
          const res = await send(route, size, streamed)
          if (res.status !== 413 || JSON.stringify(res.body) !== JSON.stringify(expected)) {
            const how = `${size} bytes ${streamed ? 'streamed' : 'declared'}`
            wrong.push(`${name} (${how}): ${res.status} ${JSON.stringify(res.body)}`)
          }
        }
      }
      assert.deepEqual(wrong, [])
      // Each refused body left its connection usable: the service still answers.
      assert.equal((await api.get('/contests/health')).status, 200)
    }),
  )
})

// Web Push in headless Chromium: /sw.js registers at the root scope from the home page and shows
// pushed messages (delivered through the DevTools protocol) as the push kinds send them; the page
// script's push buttons turn push on, test it and turn it off, and say why when they cannot; the
// worker registers the subscription a browser replaces one with, and a click on a notification
// opens its link. The real push service is never reached (this network has none): subscribe() is
// stood in for.
import assert from 'node:assert/strict'
import { createECDH, randomBytes } from 'node:crypto'
import { after, before } from 'node:test'
import { appTestOf } from './app-helpers.mjs'
import { openPage, startHarness } from './harness.mjs'

let harness
before(async () => (harness = await startHarness()), { timeout: 150_000 })
after(async () => harness?.stop(), { timeout: 30_000 })

const STATUS = {
  on: 'Push notifications are on in this browser.',
  off: 'Push notifications are off in this browser.',
  disabled: 'Push notifications are not available on this server.',
  blocked:
    'Notifications are blocked for this site: allow them in the browser settings, then try again.',
  unsupported: 'This browser cannot receive push notifications.',
}

/** A P-256 point in base64url, the shape of a VAPID public key and of a browser's p256dh. */
const p256Point = () => createECDH('prime256v1').generateKeys().toString('base64url')
const SERVER_KEY = p256Point()
const CSRF = 'csrf-token-for-the-test'
// The settings page's markup (not built yet): the data attributes are the contract.
const PUSH_MARKUP = `
  <section aria-labelledby="push-heading">
    <h2 id="push-heading">Push notifications</h2>
    <button type="button" id="push-toggle" data-push-toggle aria-pressed="false"
      aria-controls="push-status" data-subscribe-url="/settings/push/subscribe"
      data-unsubscribe-url="/settings/push/unsubscribe">Push notifications</button>
    <button type="button" id="push-test" data-push-test data-status="push-status"
      data-test-url="/settings/push/test">Send a test notification</button>
    <p id="push-status" role="status" aria-live="polite"></p>
  </section>`

/** A bounded test whose failure carries the service's last log lines. */
const pushTest = appTestOf(() => harness)

/**
 * A page of the origin, as openPage gives it, that also records what the service worker logs
 * and, with `grant`, may show notifications.
 */
async function pushPage({ grant = true } = {}) {
  const opened = await openPage(harness.browser)
  const context = opened.page.context()
  if (grant) await context.grantPermissions(['notifications'], { origin: harness.base })
  const workerErrors = []
  const watch = (worker) =>
    worker.on('console', (m) => m.type() === 'error' && workerErrors.push(m.text()))
  context.on('serviceworker', watch)
  context.serviceWorkers().forEach(watch)
  return { ...opened, context, workerErrors }
}

/**
 * The home page with the settings page's push buttons and CSRF meta added, served with the real
 * page's headers (its CSP included) and the real script.
 */
async function withPushButtons(context) {
  await context.route(`${harness.base}/`, async (route) => {
    const response = await route.fetch()
    const html = (await response.text())
      .replace('</head>', `<meta name="csrf-token" content="${CSRF}"></head>`)
      .replace(/<main\b[^>]*>/, (main) => main + PUSH_MARKUP)
    await route.fulfill({ response, body: html })
  })
}

/**
 * Answers the settings page's push routes (they come with the cookie sessions) and records each
 * request: method, CSRF header, content type, JSON body.
 */
async function recordPushRoutes(context, answers = {}) {
  const requests = []
  await context.route(`${harness.base}/settings/push/**`, async (route) => {
    const request = route.request()
    const name = new URL(request.url()).pathname.split('/').pop()
    requests.push({
      name,
      method: request.method(),
      csrf: request.headers()['x-csrf-token'],
      contentType: request.headers()['content-type'],
      body: request.postData() ? JSON.parse(request.postData()) : undefined,
    })
    const answer = answers[name] ?? { status: 200, json: { message: 'OK' } }
    await route.fulfill({ status: answer.status, json: answer.json })
  })
  return requests
}

/** The server as configured with VAPID keys (the harness has none), for the page only. */
async function serveKey(context) {
  await context.route(`${harness.base}/users/push-subscriptions/public-key`, (route) =>
    route.fulfill({ json: { enabled: true, publicKey: SERVER_KEY } }),
  )
}

/**
 * Stands in for the browser's push service, which cannot be reached here: subscribe() records its
 * options and answers a subscription of a well-formed shape; getSubscription() answers it after.
 */
async function fakePushService(context) {
  const keys = { p256dh: p256Point(), auth: randomBytes(16).toString('base64url') }
  await context.addInitScript((keys) => {
    let current = null
    window.__push = { subscribed: [], unsubscribed: 0 }
    PushManager.prototype.getSubscription = async () => current
    PushManager.prototype.subscribe = async function (options) {
      const key = new Uint8Array(options.applicationServerKey)
      window.__push.subscribed.push({ userVisibleOnly: options.userVisibleOnly, key: [...key] })
      current = {
        endpoint: 'https://push.example.test/send/subscription-1',
        options: { userVisibleOnly: true, applicationServerKey: key.buffer },
        toJSON: () => ({ endpoint: current.endpoint, expirationTime: null, keys }),
        unsubscribe: async () => {
          window.__push.unsubscribed++
          current = null
          return true
        },
      }
      return current
    }
  }, keys)
  return keys
}

/** Clicks `button` and waits until the status line says something other than "Working…". */
async function clickAndRead(page, button) {
  await page.locator(button).click()
  await page.waitForFunction(() => {
    const text = document.getElementById('push-status').textContent
    return text && text !== 'Working…'
  })
  return page.locator('#push-status').textContent()
}

/** The registration of the root scope, once its worker is activated. */
function activeRegistration(page) {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready
    const worker = registration.active
    if (worker.state !== 'activated') {
      await new Promise((resolve) =>
        worker.addEventListener('statechange', () => worker.state === 'activated' && resolve()),
      )
    }
    return { scope: registration.scope, state: worker.state, script: worker.scriptURL }
  })
}

/** No CSP violation, console error (but the `expected` ones), exception or worker error. */
async function assertClean({ report, cspViolations, workerErrors }, expected = /^$/) {
  assert.deepEqual(await cspViolations(), [], 'CSP violations')
  const errors = report.consoleErrors.filter((e) => !expected.test(e))
  assert.deepEqual(errors, [], 'console errors')
  assert.deepEqual(report.pageErrors, [], 'uncaught exceptions')
  assert.deepEqual(workerErrors, [], 'service worker console errors')
}

/**
 * Runs `body` on a push page (pushPage's options), checks the page stayed clean, and closes it
 * whatever happened. `expected`: console errors the test provokes on purpose.
 */
async function onPushPage(body, { expected, ...options } = {}) {
  const opened = await pushPage(options)
  try {
    await body(opened)
    await assertClean(opened, expected)
  } finally {
    await opened.close()
  }
}

/** The root worker, registered from the home page and activated, to evaluate code inside. */
async function runningWorker({ page, context }) {
  await page.goto(`${harness.base}/`)
  await page.evaluate(() => navigator.serviceWorker.register('/sw.js', { scope: '/' }))
  await activeRegistration(page)
  const worker = context.serviceWorkers().find((w) => w.url() === `${harness.base}/sw.js`)
  assert.ok(worker, 'the service worker is running')
  return worker
}

pushTest('/sw.js registers at the root scope and shows pushed messages', () =>
  onPushPage(async ({ page, context }) => {
    await page.goto(`${harness.base}/`)
    await page.evaluate(() => navigator.serviceWorker.register('/sw.js', { scope: '/' }))
    assert.deepEqual(await activeRegistration(page), {
      scope: `${harness.base}/`,
      state: 'activated',
      script: `${harness.base}/sw.js`,
    })

    const cdp = await context.newCDPSession(page)
    const registrations = []
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations))
    await cdp.send('ServiceWorker.enable')
    const deadline = Date.now() + 10_000
    let registration
    while (!(registration = registrations.find((r) => r.scopeURL === `${harness.base}/`))) {
      assert.ok(Date.now() < deadline, 'DevTools reports the root registration')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const deliver = (payload) =>
      cdp.send('ServiceWorker.deliverPushMessage', {
        origin: harness.base,
        registrationId: registration.registrationId,
        data: JSON.stringify(payload),
      })
    // Delivers `payload` and answers the notification it shows. Headless Chromium drops a shown
    // notification now and then when getNotifications() runs while its display is settling
    // (measured: about 1 in 10 when polled every 50 ms, none when read once after 200 ms); so the
    // list is read once after a pause, and a dropped message is delivered again (its tag makes a
    // second showing replace the first).
    const pushAndRead = async (payload) => {
      for (let attempt = 1; attempt <= 4; attempt++) {
        await deliver(payload)
        await new Promise((resolve) => setTimeout(resolve, 500))
        const found = await page.evaluate(async (tag) => {
          const registration = await navigator.serviceWorker.ready
          const [notification] = await registration.getNotifications({ tag })
          return (
            notification && {
              title: notification.title,
              body: notification.body,
              data: notification.data,
            }
          )
        }, payload.tag)
        if (found) return found
      }
      assert.fail(`no notification tagged ${payload.tag} after 4 deliveries`)
    }

    // A reminder, in the shape of the kinds' push payload.
    const reminder = {
      title: 'Codeforces Round 2000 (Div. 2) starts in 45 minutes',
      body: 'Codeforces Round 2000 (Div. 2) on Codeforces starts at 14:35 UTC (2 hours).',
      tag: 'n-0001',
      url: 'https://codeforces.com/contest/2000',
      data: { notificationId: 'n-0001', type: 'CONTEST_REMINDER', contestId: 'c-0001' },
    }
    assert.deepEqual(await pushAndRead(reminder), {
      title: reminder.title,
      body: reminder.body,
      data: { ...reminder.data, url: reminder.url },
    })

    // The test message has no link: the notification opens this service.
    const test = await pushAndRead({
      title: 'Contest Alerts test message',
      body: 'This is a test.',
      tag: 'test',
    })
    assert.equal(test.title, 'Contest Alerts test message')
    assert.equal(test.data.url, `${harness.base}/`)

    // Only http(s) links are kept, whatever a payload carries.
    const odd = await pushAndRead({
      title: 'Odd',
      body: '',
      tag: 'odd',
      url: 'javascript:alert(1)',
    })
    assert.equal(odd.data.url, `${harness.base}/`)
  }),
)

pushTest('the push buttons turn push on, send a test and turn it off', () =>
  onPushPage(async ({ page, context }) => {
    await withPushButtons(context)
    await serveKey(context)
    const keys = await fakePushService(context)
    const requests = await recordPushRoutes(context, {
      test: {
        status: 200,
        json: { enabled: true, accepted: 1, message: 'Test notification sent to 1 browser.' },
      },
    })
    await page.goto(`${harness.base}/`)
    const toggle = page.locator('#push-toggle')
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false')

    assert.equal(await clickAndRead(page, '#push-toggle'), STATUS.on)
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true')
    // The worker the buttons registered is this service's, at the root.
    const registration = await activeRegistration(page)
    assert.equal(registration.scope, `${harness.base}/`)
    assert.equal(registration.script, `${harness.base}/sw.js`)
    const push = await page.evaluate(() => window.__push)
    assert.deepEqual(push.subscribed, [
      { userVisibleOnly: true, key: [...Buffer.from(SERVER_KEY, 'base64url')] },
    ])
    assert.deepEqual(requests.shift(), {
      name: 'subscribe',
      method: 'POST',
      csrf: CSRF,
      contentType: 'application/json',
      body: { endpoint: 'https://push.example.test/send/subscription-1', keys },
    })

    assert.equal(await clickAndRead(page, '#push-test'), 'Test notification sent to 1 browser.')
    assert.deepEqual(requests.shift(), {
      name: 'test',
      method: 'POST',
      csrf: CSRF,
      contentType: undefined,
      body: undefined,
    })

    assert.equal(await clickAndRead(page, '#push-toggle'), STATUS.off)
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false')
    assert.equal((await page.evaluate(() => window.__push)).unsubscribed, 1)
    assert.deepEqual(requests.shift(), {
      name: 'unsubscribe',
      method: 'DELETE',
      csrf: CSRF,
      contentType: 'application/json',
      body: { endpoint: 'https://push.example.test/send/subscription-1' },
    })
    assert.deepEqual(requests, [])
  }),
)

pushTest('a refused subscription is undone in the browser and the reason shown', () =>
  onPushPage(
    async ({ page, context }) => {
      await withPushButtons(context)
      await serveKey(context)
      await fakePushService(context)
      const message = 'This push endpoint is registered to another account'
      await recordPushRoutes(context, {
        subscribe: { status: 409, json: { statusCode: 409, message, error: 'Conflict' } },
      })
      await page.goto(`${harness.base}/`)
      assert.equal(await clickAndRead(page, '#push-toggle'), message)
      assert.equal(await page.locator('#push-toggle').getAttribute('aria-pressed'), 'false')
      assert.equal((await page.evaluate(() => window.__push)).unsubscribed, 1)
    },
    // The browser's console shows the 409 as a failed request; nothing else may be logged.
    { expected: /status of 409/ },
  ),
)

pushTest('without VAPID keys on the server, turning push on says so', () =>
  onPushPage(async ({ page, context }) => {
    await withPushButtons(context)
    const requests = await recordPushRoutes(context)
    await page.goto(`${harness.base}/`)
    // The real endpoint: the harness's service has no VAPID keys.
    const key = await page.evaluate(() =>
      fetch('/users/push-subscriptions/public-key').then((r) => r.json()),
    )
    assert.deepEqual(key, { enabled: false })
    assert.equal(await clickAndRead(page, '#push-toggle'), STATUS.disabled)
    assert.equal(await page.locator('#push-toggle').getAttribute('aria-pressed'), 'false')
    // Nothing was registered or sent: a browser is not subscribed to a service that cannot push.
    assert.equal(await page.evaluate(() => navigator.serviceWorker.getRegistration('/')), undefined)
    assert.deepEqual(requests, [])
  }),
)

pushTest('blocked notifications and browsers without push are told so', async () => {
  await onPushPage(
    async ({ page, context }) => {
      await withPushButtons(context)
      await serveKey(context)
      // The person said no earlier: the browser reports it and asks no more.
      await context.addInitScript(() => {
        Object.defineProperty(Notification, 'permission', { get: () => 'denied' })
        Notification.requestPermission = async () => 'denied'
      })
      await page.goto(`${harness.base}/`)
      await page.waitForFunction(
        (text) => document.getElementById('push-status').textContent === text,
        STATUS.blocked,
      )
      assert.equal(await clickAndRead(page, '#push-toggle'), STATUS.blocked)
    },
    { grant: false },
  )

  await onPushPage(async ({ page, context }) => {
    await withPushButtons(context)
    await context.addInitScript(() => delete window.PushManager)
    await page.goto(`${harness.base}/`)
    assert.equal(await page.locator('#push-status').textContent(), STATUS.unsupported)
    assert.equal(await clickAndRead(page, '#push-toggle'), STATUS.unsupported)
    assert.equal(await clickAndRead(page, '#push-test'), STATUS.unsupported)
  })
})

pushTest('the service worker registers the subscription that replaces one', () =>
  onPushPage(async (opened) => {
    const worker = await runningWorker(opened)
    // Inside the worker: the push service (subscribe) and the network (fetch) stood in for, and
    // the browser's pushsubscriptionchange, which DevTools cannot send, dispatched as it would be
    // for a subscription it dropped without a replacement.
    const seen = await worker.evaluate(async () => {
      const sent = []
      const subscribed = []
      self.fetch = async (url, init) => {
        sent.push({ url: String(url), method: init.method, headers: init.headers, body: init.body })
        return new Response('{"message":"Push subscription renewed"}')
      }
      const subscription = (endpoint, keys, options) => ({
        endpoint,
        options,
        toJSON: () => ({ endpoint, expirationTime: null, keys }),
      })
      const options = {
        userVisibleOnly: true,
        applicationServerKey: new Uint8Array([4, 7, 9]).buffer,
      }
      PushManager.prototype.subscribe = async function (given) {
        subscribed.push({
          userVisibleOnly: given.userVisibleOnly,
          key: [...new Uint8Array(given.applicationServerKey)],
        })
        return subscription('https://push.example.test/send/new', {
          p256dh: 'new-p',
          auth: 'new-a',
        })
      }
      const event = new ExtendableEvent('pushsubscriptionchange')
      Object.defineProperties(event, {
        oldSubscription: {
          value: subscription(
            'https://push.example.test/send/old',
            { p256dh: 'old-p', auth: 'old-a' },
            options,
          ),
        },
        newSubscription: { value: null },
      })
      self.dispatchEvent(event)
      for (let i = 0; i < 40 && sent.length === 0; i++) await new Promise((r) => setTimeout(r, 50))
      return { sent, subscribed }
    })
    assert.deepEqual(seen.subscribed, [{ userVisibleOnly: true, key: [4, 7, 9] }])
    assert.equal(seen.sent.length, 1)
    const [request] = seen.sent
    assert.equal(request.url, `${harness.base}/users/push-subscriptions/renew`)
    assert.equal(request.method, 'POST')
    assert.deepEqual(request.headers, { 'Content-Type': 'application/json' })
    assert.deepEqual(JSON.parse(request.body), {
      old: {
        endpoint: 'https://push.example.test/send/old',
        keys: { p256dh: 'old-p', auth: 'old-a' },
      },
      subscription: {
        endpoint: 'https://push.example.test/send/new',
        keys: { p256dh: 'new-p', auth: 'new-a' },
      },
    })
  }),
)

pushTest('a click on a notification opens its link, or brings forward a tab already there', () =>
  onPushPage(async (opened) => {
    const worker = await runningWorker(opened)
    // Inside the worker: a notification shown as a push shows it, clicked as the browser would
    // dispatch the click (DevTools cannot click one), with the tabs (clients) stood in for.
    const click = (tabs) =>
      worker.evaluate(async (tabs) => {
        const url = 'https://codeforces.com/contest/2000'
        const calls = []
        self.clients.matchAll = async (options) => {
          calls.push({ matchAll: options })
          return tabs.map((tab) => ({ url: tab, focus: async () => calls.push({ focus: tab }) }))
        }
        self.clients.openWindow = async (link) => calls.push({ openWindow: link })
        // Headless Chromium sometimes drops a notification read back while it settles (see the
        // first test), so it is shown again until it is there.
        let notification
        for (let attempt = 0; attempt < 4 && !notification; attempt++) {
          await self.registration.showNotification('Round 2000', { tag: 'click', data: { url } })
          await new Promise((resolve) => setTimeout(resolve, 300))
          ;[notification] = await self.registration.getNotifications({ tag: 'click' })
        }
        if (!notification) return { shown: false }
        self.dispatchEvent(new NotificationEvent('notificationclick', { notification }))
        for (let i = 0; i < 40 && calls.length < 2; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
        const left = await self.registration.getNotifications({ tag: 'click' })
        return { shown: true, calls, closed: left.length === 0 }
      }, tabs)
    const url = 'https://codeforces.com/contest/2000'
    const elsewhere = await click(['https://atcoder.jp/'])
    assert.ok(elsewhere.shown, 'the notification was shown')
    assert.deepEqual(elsewhere.calls, [
      { matchAll: { type: 'window', includeUncontrolled: true } },
      { openWindow: url },
    ])
    assert.ok(elsewhere.closed, 'the clicked notification is closed')
    const there = await click(['https://atcoder.jp/', url])
    assert.deepEqual(there.calls, [
      { matchAll: { type: 'window', includeUncontrolled: true } },
      { focus: url },
    ])
  }),
)

pushTest(
  'a reminder’s snooze action POSTs its signed link and shows the answer; no other origin’s',
  () =>
    onPushPage(async (opened) => {
      const worker = await runningWorker(opened)
      // Inside the worker: pushes dispatched as the browser would (the payload as the push channel
      // sends it), the network (fetch) and the tabs stood in for, the action clicked.
      const seen = await worker.evaluate(async (base) => {
        const sent = []
        const words = 'Done: a reminder of Round 2001 comes 10 minutes before it starts.'
        self.fetch = async (url, init) => {
          sent.push({ url: String(url), method: init.method, headers: init.headers })
          return new Response(JSON.stringify({ snoozed: true, message: words }), { status: 201 })
        }
        const opened = []
        self.clients.matchAll = async () => []
        self.clients.openWindow = async (link) => opened.push(link)
        const shown = async (tag) => {
          for (let i = 0; i < 8; i++) {
            await new Promise((resolve) => setTimeout(resolve, 250))
            const [notification] = await self.registration.getNotifications({ tag })
            if (notification) return notification
          }
        }
        // A shown notification is now and then dropped while it settles (see the first test).
        const push = async (payload) => {
          for (let attempt = 0; attempt < 4; attempt++) {
            self.dispatchEvent(new PushEvent('push', { data: JSON.stringify(payload) }))
            const notification = await shown(payload.tag)
            if (notification) return notification
          }
        }
        const reminder = (tag, snoozeUrl) => ({
          title: 'Round 2001 starts in 2 hours',
          body: 'Round 2001 on Codeforces starts at 16:00 UTC.',
          tag,
          url: 'https://codeforces.com/contest/2001',
          actions: [{ action: 'snooze', title: 'Remind me 10 minutes before' }],
          data: { notificationId: tag, type: 'CONTEST_REMINDER', snoozeUrl },
        })
        const snoozeUrl = `${base}/notifications/snooze?token=signed`
        const ours = await push(reminder('snooze-ours', snoozeUrl))
        const foreign = await push(reminder('snooze-foreign', 'https://elsewhere.example/snooze'))
        if (!ours || !foreign) return { shown: false }
        const actions = (n) => n.actions.map(({ action, title }) => ({ action, title }))
        const result = { shown: true, ours: actions(ours), foreign: actions(foreign) }

        self.dispatchEvent(
          new NotificationEvent('notificationclick', { notification: ours, action: 'snooze' }),
        )
        const answer = await shown('snooze-snooze-ours')
        // The other origin's link is never called: the click opens the notification's page.
        self.dispatchEvent(
          new NotificationEvent('notificationclick', { notification: foreign, action: 'snooze' }),
        )
        for (let i = 0; i < 40 && opened.length === 0; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
        return { ...result, sent, answer: answer?.body, opened }
      }, harness.base)
      assert.ok(seen.shown, 'both reminders were shown')
      assert.deepEqual(seen.ours, [{ action: 'snooze', title: 'Remind me 10 minutes before' }])
      assert.deepEqual(seen.foreign, [], 'no action without a link of this origin')
      assert.deepEqual(seen.sent, [
        {
          url: `${harness.base}/notifications/snooze?token=signed`,
          method: 'POST',
          headers: { Accept: 'application/json' },
        },
      ])
      assert.equal(seen.answer, 'Done: a reminder of Round 2001 comes 10 minutes before it starts.')
      assert.deepEqual(seen.opened, ['https://codeforces.com/contest/2001'])
    }),
)

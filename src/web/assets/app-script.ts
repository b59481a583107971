// The page's one script, served from /assets: local times with the zone named, countdowns, the
// browser's zone for the sign-up form, and turning Web Push on and off where a page has the push
// buttons (the settings page).
// Plain ES2017 in a string, so Workers and Deno serve the same bytes without a bundler.
import { ZONE_SCRIPT } from '../../lib/time-zones.ts'

export const APP_SCRIPT = `'use strict'
;(function () {
  ${ZONE_SCRIPT}

  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone
  var local = new Intl.DateTimeFormat(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  })

  // The server wrote UTC; the viewer reads their own zone, and the UTC text stays as the title.
  document.querySelectorAll('time[datetime]').forEach(function (el) {
    var date = new Date(el.getAttribute('datetime'))
    if (isNaN(date.getTime())) return
    el.title = el.textContent
    el.textContent = local.format(date)
  })
  // Chromium answers legacy names (Asia/Calcutta); people read the place of the current one.
  var note = document.getElementById('zone-note')
  if (note && zone) {
    note.textContent = 'Times are in your time zone, ' + zonePlace(currentZoneName(zone)) + '.'
    note.setAttribute('data-zone', currentZoneName(zone))
  }

  // A sign-up records the browser's zone, which the server checks; without this script the
  // field stays empty and the account keeps the default, UTC.
  document.querySelectorAll('input[data-browser-zone]').forEach(function (input) {
    if (zone) input.value = zone
  })

  function part(n, unit) {
    return n > 0 ? n + ' ' + unit : ''
  }

  // Whole days and hours far off, minutes and seconds when it matters.
  function until(ms) {
    var s = Math.floor(ms / 1000)
    var d = Math.floor(s / 86400)
    var h = Math.floor((s % 86400) / 3600)
    var m = Math.floor((s % 3600) / 60)
    var words = d > 0 ? [part(d, 'd'), part(h, 'h')] : h > 0 ? [part(h, 'h'), part(m, 'min')] : [part(m, 'min'), part(s % 60, 's')]
    return words.filter(Boolean).join(' ') || '0 s'
  }

  var countdowns = document.querySelectorAll('.countdown[data-start]')
  function tick() {
    var now = Date.now()
    countdowns.forEach(function (el) {
      var left = Date.parse(el.getAttribute('data-start')) - now
      el.textContent = left > 0 ? 'starts in ' + until(left) : 'started'
      el.hidden = false
    })
  }
  if (countdowns.length > 0) {
    tick()
    setInterval(tick, 1000)
  }

  // Web Push, on pages with its buttons only. The markup is the contract: a toggle
  // button[data-push-toggle] (aria-pressed, data-subscribe-url, data-unsubscribe-url), a
  // button[data-push-test] (data-test-url), each naming its aria-live status element by
  // aria-controls or data-status, and <meta name="csrf-token"> when the session wants one.
  var KEY_URL = '/users/push-subscriptions/public-key'
  var SAY = {
    unsupported: 'This browser cannot receive push notifications.',
    blocked:
      'Notifications are blocked for this site: allow them in the browser settings, then try again.',
    dismissed: 'Notifications were not allowed, so push is still off.',
    disabled: 'Push notifications are not available on this server.',
    working: 'Working…',
    on: 'Push notifications are on in this browser.',
    off: 'Push notifications are off in this browser.',
    sent: 'Test notification sent.',
    failed: 'Something went wrong; please try again.',
  }
  var toggles = document.querySelectorAll('button[data-push-toggle]')
  var testers = document.querySelectorAll('button[data-push-test]')
  var keyRequest = null

  function supported() {
    return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window
  }

  function say(button, text) {
    var id = button.getAttribute('aria-controls') || button.getAttribute('data-status')
    var status = id && document.getElementById(id)
    if (status) status.textContent = text
  }

  // A failure whose words are meant for the user, unlike a browser's own error text.
  function refusal(text) {
    var error = new Error(text)
    error.forUser = true
    return error
  }

  function messageOf(data) {
    var m = data && data.message
    return Array.isArray(m) ? m.join(' ') : typeof m === 'string' ? m : ''
  }

  // Same origin with the session's cookie; the CSRF token of the page's meta when it has one.
  async function send(method, url, body) {
    var headers = { Accept: 'application/json' }
    var meta = document.querySelector('meta[name="csrf-token"]')
    if (meta && meta.getAttribute('content')) headers['X-CSRF-Token'] = meta.getAttribute('content')
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    var res = await fetch(url, {
      method: method,
      credentials: 'same-origin',
      headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    var data = await res.json().catch(function () {
      return {}
    })
    if (res.ok) return data
    var error = refusal(messageOf(data) || 'The server answered ' + res.status + '.')
    error.status = res.status
    throw error
  }

  // Asked once when the page loads, so a click goes straight to the permission prompt, which
  // browsers allow only close to the click.
  function publicKey(button) {
    if (!keyRequest) {
      keyRequest = send('GET', button.getAttribute('data-public-key-url') || KEY_URL)
      keyRequest.catch(function () {
        keyRequest = null
      })
    }
    return keyRequest
  }

  function keyBytes(text) {
    var pad = '==='.slice((text.length + 3) % 4)
    var raw = atob(text.replace(/-/g, '+').replace(/_/g, '/') + pad)
    var bytes = new Uint8Array(raw.length)
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i)
    return bytes
  }

  // A subscription made with an older server key cannot be reused: subscribe() would refuse.
  function madeWith(subscription, key) {
    var had = subscription.options && subscription.options.applicationServerKey
    if (!had || had.byteLength !== key.length) return false
    var bytes = new Uint8Array(had)
    for (var i = 0; i < key.length; i++) if (bytes[i] !== key[i]) return false
    return true
  }

  async function currentSubscription() {
    var registration = await navigator.serviceWorker.getRegistration('/')
    return registration ? registration.pushManager.getSubscription() : null
  }

  async function turnOn(button) {
    if (Notification.permission === 'denied') throw refusal(SAY.blocked)
    var server = await publicKey(button)
    if (!server.enabled || !server.publicKey) throw refusal(SAY.disabled)
    var permission = await Notification.requestPermission()
    if (permission !== 'granted') throw refusal(permission === 'denied' ? SAY.blocked : SAY.dismissed)
    await navigator.serviceWorker.register('/sw.js', { scope: '/' })
    // subscribe() needs an active worker, which ready waits for.
    var registration = await navigator.serviceWorker.ready
    var key = keyBytes(server.publicKey)
    var subscription = await registration.pushManager.getSubscription()
    if (subscription && !madeWith(subscription, key)) {
      await subscription.unsubscribe()
      subscription = null
    }
    if (!subscription) {
      subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: key,
      })
    }
    var json = subscription.toJSON()
    var body = { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } }
    try {
      await send('POST', button.getAttribute('data-subscribe-url'), body)
    } catch (error) {
      // A browser subscribed where the server does not know it would look on and never get push.
      await subscription.unsubscribe().catch(function () {})
      throw error
    }
  }

  async function turnOff(button) {
    var subscription = await currentSubscription()
    if (!subscription) return
    var endpoint = subscription.endpoint
    await subscription.unsubscribe()
    try {
      await send('DELETE', button.getAttribute('data-unsubscribe-url'), { endpoint: endpoint })
    } catch (error) {
      // Not known there is what was wanted; anything else the server would learn at the next send.
      if (error.status !== 404) throw error
    }
  }

  function pressed(button, on) {
    button.setAttribute('aria-pressed', on ? 'true' : 'false')
  }

  async function toggle(button) {
    if (!supported()) throw refusal(SAY.unsupported)
    if (button.getAttribute('aria-pressed') === 'true') {
      await turnOff(button)
      pressed(button, false)
      return SAY.off
    }
    await turnOn(button)
    pressed(button, true)
    return SAY.on
  }

  async function sendTest(button) {
    if (!supported()) throw refusal(SAY.unsupported)
    var data = await send('POST', button.getAttribute('data-test-url'))
    if (data.enabled === false) throw refusal(SAY.disabled)
    return messageOf(data) || SAY.sent
  }

  // One action at a time per button; the outcome, good or bad, goes to its status line.
  function onClick(button, action) {
    button.addEventListener('click', async function () {
      if (button.getAttribute('aria-busy') === 'true') return
      button.setAttribute('aria-busy', 'true')
      say(button, SAY.working)
      try {
        say(button, await action(button))
      } catch (error) {
        // A browser's own failure (no push service reachable, say) is named after the apology.
        var words = error && error.message ? SAY.failed + ' (' + error.message + ')' : SAY.failed
        if (error && error.forUser) words = error.message
        say(button, error && error.name === 'NotAllowedError' ? SAY.blocked : words)
      } finally {
        button.removeAttribute('aria-busy')
      }
    })
  }

  toggles.forEach(function (button) {
    onClick(button, toggle)
    if (!supported()) return say(button, SAY.unsupported)
    if (Notification.permission === 'denied') say(button, SAY.blocked)
    publicKey(button).catch(function () {})
    currentSubscription().then(
      function (subscription) {
        pressed(button, !!subscription && Notification.permission === 'granted')
      },
      function () {
        pressed(button, false)
      }
    )
  })
  testers.forEach(function (button) {
    onClick(button, sendTest)
  })
})()
`

// The service worker served at /sw.js: shows each Web Push message as a notification and opens
// its page when clicked, snoozes a reminder when its "Remind me 10 minutes before" action is
// clicked (a POST of the signed link the push carried), and registers the browser's new
// subscription when it replaces one.
// Plain ES2017 in a string, as the page script; no fetch handler, no cache.
export const SERVICE_WORKER_SCRIPT = `'use strict'
// Only the notification; the pages are never cached here, so the service works as without it.

// A new version replaces the old one at once: it holds no state a running page depends on.
self.addEventListener('install', function () {
  self.skipWaiting()
})

// The link a notification opens: an http(s) URL (the contest's page, from the payload's url or
// data.url), else this service's home page, so a notification never opens nothing.
function linkOf(payload) {
  var data = payload.data && typeof payload.data === 'object' ? payload.data : {}
  var wanted = typeof payload.url === 'string' ? payload.url : data.url
  if (typeof wanted !== 'string' || !wanted) return self.registration.scope
  try {
    var url = new URL(wanted, self.registration.scope)
    if (url.protocol === 'https:' || url.protocol === 'http:') return url.href
  } catch (error) {}
  return self.registration.scope
}

// What the push kinds send: {title, body, tag, url?, data}. A message that is not JSON is still
// shown (as its text), because a push the user cannot see is one the browser may penalise.
function payloadOf(event) {
  if (!event.data) return {}
  try {
    var parsed = event.data.json()
    return parsed && typeof parsed === 'object' ? parsed : {}
  } catch (error) {
    return { body: event.data.text() }
  }
}

// The signed snooze link of a reminder, only on this service's own origin: a push can never make
// the worker POST anywhere else.
function snoozeUrlOf(data) {
  if (typeof data.snoozeUrl !== 'string') return undefined
  try {
    var url = new URL(data.snoozeUrl, self.registration.scope)
    if (url.origin === new URL(self.registration.scope).origin) return url.href
  } catch (error) {}
  return undefined
}

self.addEventListener('push', function (event) {
  var payload = payloadOf(event)
  var data = payload.data && typeof payload.data === 'object' ? payload.data : {}
  var snoozeUrl = snoozeUrlOf(data)
  var options = {
    body: typeof payload.body === 'string' ? payload.body : '',
    data: Object.assign({}, data, { url: linkOf(payload) }),
  }
  // Kept only when it is this origin's, so a click never POSTs anywhere else.
  delete options.data.snoozeUrl
  if (snoozeUrl) options.data.snoozeUrl = snoozeUrl
  // The one action the service sends: the snooze, shown only with a link it can call.
  var actions = Array.isArray(payload.actions) ? payload.actions : []
  var snooze = actions.filter(function (a) {
    return a && a.action === 'snooze' && typeof a.title === 'string' && a.title
  })[0]
  if (snooze && snoozeUrl) options.actions = [{ action: 'snooze', title: snooze.title }]
  // One notification per tag: a newer message of the same notification replaces the older one,
  // and renotify lets the replacement be noticed (a second test push, say).
  if (typeof payload.tag === 'string' && payload.tag) {
    options.tag = payload.tag
    options.renotify = true
  }
  var title = typeof payload.title === 'string' && payload.title ? payload.title : 'Contest Alerts'
  event.waitUntil(self.registration.showNotification(title, options))
})

// The endpoint and keys of a subscription, as the API takes them.
function subscriptionBody(subscription) {
  var json = subscription.toJSON()
  return { endpoint: json.endpoint, keys: json.keys }
}

// The browser replaced a subscription (it expired, or the push service rotated it): the new one
// takes the old one's place, so pushes keep coming without a visit to the settings page. The old
// one's endpoint and keys name the account; without them (a browser that gives no old one)
// nothing can be renewed here, and turning push on again in the settings registers the browser.
function renew(old, replacement) {
  if (!old) return Promise.resolve()
  var next = replacement
    ? Promise.resolve(replacement)
    : self.registration.pushManager.subscribe(old.options)
  return next
    .then(function (subscription) {
      return fetch(new URL('users/push-subscriptions/renew', self.registration.scope).href, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          old: subscriptionBody(old),
          subscription: subscriptionBody(subscription),
        }),
      })
    })
    .catch(function () {})
}

self.addEventListener('pushsubscriptionchange', function (event) {
  event.waitUntil(renew(event.oldSubscription, event.newSubscription))
})

// The snooze: the signed link POSTed, and its answer's words shown (made, already set, or why
// not: the contest started or is less than 10 minutes away, the link expired).
function snoozeOf(notification, url) {
  var tag = 'snooze-' + (notification.tag || '')
  var show = function (body) {
    return self.registration.showNotification('Contest Alerts', { body: body, tag: tag })
  }
  return fetch(url, { method: 'POST', headers: { Accept: 'application/json' } })
    .then(function (res) {
      return res.json().then(function (answer) {
        var words = answer && typeof answer.message === 'string' ? answer.message : ''
        return show(words || (res.ok ? 'Reminder set.' : 'The reminder could not be set.'))
      })
    })
    .catch(function () {
      return show('The reminder could not be set: the service could not be reached.')
    })
}

// A tab already showing the link is brought forward; otherwise the link opens in a new one.
self.addEventListener('notificationclick', function (event) {
  event.notification.close()
  var data = event.notification.data || {}
  if (event.action === 'snooze') {
    var snoozeUrl = snoozeUrlOf(data)
    if (snoozeUrl) return event.waitUntil(snoozeOf(event.notification, snoozeUrl))
  }
  var url = typeof data.url === 'string' ? data.url : self.registration.scope
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(function (tabs) {
      for (var i = 0; i < tabs.length; i++) {
        if (tabs[i].url === url && 'focus' in tabs[i]) return tabs[i].focus()
      }
      return self.clients.openWindow ? self.clients.openWindow(url) : undefined
    })
  )
})
`

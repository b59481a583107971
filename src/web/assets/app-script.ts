// The page's one script, served from /assets: local times with the zone named, and countdowns.
// Plain ES2017 in a string, so Workers and Deno serve the same bytes without a bundler.
export const APP_SCRIPT = `'use strict'
;(function () {
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
  var note = document.getElementById('zone-note')
  if (note && zone) note.textContent = 'Times are in your time zone, ' + zone + '.'

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
})()
`

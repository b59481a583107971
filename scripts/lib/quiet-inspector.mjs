// Turns off the DevTools network panel that `wrangler dev` records for every subrequest, so a
// local server (npm start, the benchmarks, the contract suite) does not pay for a panel nobody has
// open. wrangler 4.86 (the last on Node 20) enables the runtime's Network domain even with no
// DevTools attached: each D1, KV and Cache API call then sends four events, with the response body
// in base64, through its inspector proxy to the wrangler process, and the proxy keeps them in a
// buffer that only an attached DevTools drains (workers-sdk issue 14191, fixed in wrangler 4.100).
// Measured: about 3 ms of wrangler's CPU per uncached search; 20 µs with the panel off.
import WebSocket from 'ws'

// wrangler enables the domain again whenever the Worker reloads (an edit under `npm start`).
const AGAIN_EVERY_MS = 30_000
const ANSWER_TIMEOUT_MS = 5_000

/**
 * Connects to the inspector proxy on `port` as a DevTools client would, asks the runtime to
 * disable the Network domain, and leaves. Resolves true once the runtime answered; false when
 * the proxy is busy (a real DevTools attached: it gets what it asked for) or did not answer.
 */
export function disableNetworkPanel(port) {
  return new Promise((resolve) => {
    // No Origin and no User-Agent: the proxy lets such a client in (it is how VS Code connects).
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`)
    let over = false
    const done = (answered) => {
      if (over) return
      over = true
      clearTimeout(timer)
      socket.terminate()
      resolve(answered)
    }
    const timer = setTimeout(() => done(false), ANSWER_TIMEOUT_MS)
    timer.unref()
    socket.on('error', () => done(false))
    socket.on('close', () => done(false))
    socket.on('open', () => socket.send(JSON.stringify({ id: 1, method: 'Network.disable' })))
    socket.on('message', (data) => {
      try {
        if (JSON.parse(data.toString()).id === 1) done(true)
      } catch {
        // Not the runtime's JSON: not our answer either.
      }
    })
  })
}

/**
 * Keeps the panel off for as long as the server runs: now, then every AGAIN_EVERY_MS. Returns
 * once the first attempt is over, with the function that stops the repeats.
 */
export async function keepNetworkPanelOff(port) {
  await disableNetworkPanel(port)
  const timer = setInterval(() => void disableNetworkPanel(port), AGAIN_EVERY_MS)
  timer.unref()
  return () => clearInterval(timer)
}

// Slack's incoming webhooks as the provider stand-in serves them (POST /slack/services/T…/B…/…):
// 200 "ok" in plain text for a message with text or blocks, and Slack's own error codes otherwise.
import type { ScriptedResponse } from './providers.ts'

const WEBHOOK_PATH = /^\/slack\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]+$/

const text = (status: number, body: string): ScriptedResponse => ({
  status,
  body,
  headers: { 'content-type': 'text/plain; charset=utf-8' },
})

export function slackResponse(method: string, path: string, body: string): ScriptedResponse {
  if (method !== 'POST' || !WEBHOOK_PATH.test(path)) return text(404, 'no_service')
  let message: { text?: unknown; blocks?: unknown } | undefined
  try {
    message = JSON.parse(body) as typeof message
  } catch {
    return text(400, 'invalid_payload')
  }
  if (!message || typeof message !== 'object') return text(400, 'invalid_payload')
  const blocks = Array.isArray(message.blocks) ? message.blocks : undefined
  if (typeof message.text !== 'string' && !blocks?.length) return text(400, 'no_text')
  // Block Kit allows 50 blocks a message; a header's text is at most 150 characters.
  if (blocks && blocks.length > 50) return text(400, 'invalid_blocks')
  for (const block of blocks ?? []) {
    const b = block as { type?: unknown; text?: { text?: unknown } }
    if (b.type === 'header' && String(b.text?.text ?? '').length > 150) {
      return text(400, 'invalid_blocks')
    }
  }
  return text(200, 'ok')
}

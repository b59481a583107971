// Slack's incoming webhooks: a message (Block Kit) posted to the URL a user pasted, or the local
// outbox. Slack answers 200 "ok", or an error code in plain text whose status says what it means.
import { settings, type Env } from '../../env.ts'
import { notSent, resultOf, secondsOf, unreachable, type SendResult } from '../define.ts'
import { writeOutbox } from '../outbox.ts'
import { postJson } from '../post-json.ts'
import { maskWebhookUrl, webhookUrlProblem, type WebhookUrlRule } from '../webhook-url.ts'

export type SlackProvider = 'webhook' | 'outbox'

export const SLACK_WEBHOOK_RULE: WebhookUrlRule = {
  field: 'slackWebhookUrl',
  provider: 'Slack',
  maxLength: 512,
  hosts: new Set(['hooks.slack.com']),
  // /services/<workspace id>/<bot id>/<secret>, the only form Slack issues for incoming webhooks.
  path: /^\/services\/T[A-Z0-9]{1,20}\/B[A-Z0-9]{1,20}\/[A-Za-z0-9]{1,64}$/,
  localPath: /\/services\/T[A-Z0-9]{1,20}\/B[A-Z0-9]{1,20}\/[A-Za-z0-9]{1,64}$/,
  form: 'https://hooks.slack.com/services/T…/B…/…',
}

export const slackWebhookProblem = (env: Env, value: string) =>
  webhookUrlProblem(SLACK_WEBHOOK_RULE, env, value)

/** Slack needs no credentials of ours: on unless SLACK_ENABLED=false, the outbox in local runs. */
export function slackProvider(env: Env): SlackProvider | undefined {
  const s = settings(env)
  if (!s.SLACK_ENABLED) return undefined
  return s.DEV_OUTBOX ? 'outbox' : 'webhook'
}

/**
 * What Slack's answer means: 429 and 5xx may get better; a webhook Slack turned off or whose
 * channel is gone, archived or closed to it (403, 404, 410) never will; other 4xx are our fault.
 */
export function readSlackAnswer(status: number, body: string, retryAfter: string | null) {
  if (status >= 200 && status < 300) return resultOf({ ok: true })
  const code = body.trim().slice(0, 200)
  const error = `Slack answered ${status}: ${code || 'no reason given'}`
  if (status === 429) {
    const retryAfterSeconds = secondsOf(retryAfter)
    const said = 'Slack asked to wait before the next message'
    return resultOf({ ok: false, transient: true, error, said, retryAfterSeconds })
  }
  const dead = status === 403 || status === 404 || status === 410
  const said = SLACK_WORDS[code] ?? (status >= 500 ? 'Slack is having trouble' : undefined)
  return resultOf({ ok: false, dead, transient: status >= 500, error, said })
}

// Slack's error codes of incoming webhooks (api.slack.com/messaging/webhooks#handling_errors).
const SLACK_WORDS: Record<string, string> = {
  no_service: 'the webhook was removed or turned off',
  no_team: 'the workspace is gone',
  team_disabled: 'the workspace is gone',
  channel_not_found: 'the channel was deleted',
  channel_is_archived: 'the channel is archived',
  action_prohibited: 'the workspace does not allow this webhook to post',
  posting_to_general_channel_denied: 'only admins may post in that channel',
  invalid_token: 'the webhook is no longer valid',
  invalid_payload: 'Slack did not take the message',
}

export async function sendSlack(
  env: Env,
  provider: SlackProvider,
  webhookUrl: string,
  message: unknown,
): Promise<SendResult> {
  // Checked again at send time: the rules or the settings may have changed since it was set.
  const refused = slackWebhookProblem(env, webhookUrl)
  if (refused) return notSent('permanent', `Not sent: ${refused}`)
  if (provider === 'outbox') {
    const record = {
      channel: 'slack',
      from: 'slack:incoming-webhook',
      to: maskWebhookUrl(webhookUrl),
      subject: 'incoming webhook',
      body: message,
    }
    return resultOf({ ok: true, id: await writeOutbox(env.KV, record, Date.now()) })
  }
  const res = await postJson(webhookUrl, message)
  if (!(res instanceof Response)) return unreachable('Slack', res)
  const body = await res.text().catch(() => '')
  return readSlackAnswer(res.status, body, res.headers.get('Retry-After'))
}

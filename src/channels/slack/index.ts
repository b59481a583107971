// The Slack channel: a Block Kit message posted to the incoming webhook a user pasted (hooks.slack.com
// only). Like Discord it needs no credentials of ours; a webhook Slack turned off, or whose channel
// was deleted or archived, is dead and forgotten.
import { defineChannel } from '../define.ts'
import { blockKitMessage } from './block-kit.ts'
import {
  sendSlack,
  slackProvider,
  slackWebhookProblem,
  SLACK_WEBHOOK_RULE,
} from './incoming-webhook.ts'
import { maskWebhookUrl } from '../webhook-url.ts'

export const slack = defineChannel({
  id: 'slack',
  label: 'Slack',
  defaultOn: false,
  switchField: 'notifySlack',
  destination: {
    kind: 'webhook',
    field: 'slackWebhookUrl',
    webhook: {
      maxLength: SLACK_WEBHOOK_RULE.maxLength,
      form: SLACK_WEBHOOK_RULE.form,
      example: 'https://hooks.slack.com/services/T0123ABCD/B0456EFGH/abcdefghijklmnopqrstuvwx',
      problem: slackWebhookProblem,
      mask: maskWebhookUrl,
      setupHint:
        'In Slack: create an app at api.slack.com/apps, turn on Incoming Webhooks, Add New Webhook to Workspace, pick the channel, Copy.',
    },
  },
  blockable: true,
  batchSize: 100,
  provider: (env) => {
    const kind = slackProvider(env)
    return kind && { env, kind }
  },
  render: blockKitMessage,
  send: (p, { to, message }) => sendSlack(p.env, p.kind, to, message),
})

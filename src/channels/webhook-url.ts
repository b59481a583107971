// Which webhook URLs a user may paste for a webhook channel (Discord, Slack) and the Worker may
// POST to: the provider's own hosts and webhook path and nothing else, checked when the URL is set
// and again before each send; a local run (ALLOW_LOCAL_TARGETS) also admits a stand-in on a
// loopback or private host that serves the same path under a prefix of its own.
import type { Env } from '../env.ts'
import { isNonPublicHost } from '../lib/ip-targets.ts'
import { localTargetsAllowed, outboundTargetProblem } from '../lib/outbound-targets.ts'

export interface WebhookUrlRule {
  /** The API field it is set through ('slackWebhookUrl'). */
  field: string
  /** The provider's name ('Slack'). */
  provider: string
  maxLength: number
  /** The provider's hosts; it listens on 443 only, so no other port is taken. */
  hosts: ReadonlySet<string>
  /** The whole path, nothing before or after. */
  path: RegExp
  /** The same path at the end of a stand-in's. */
  localPath: RegExp
  /** The expected form, for the message ('https://hooks.slack.com/services/<…>'). */
  form: string
}

/** Why the Worker may not send to `value`, in the API's wording; undefined when it may. */
export function webhookUrlProblem(rule: WebhookUrlRule, env: Env, value: string) {
  const { field } = rule
  if (value.length > rule.maxLength) {
    return `${field} must be at most ${rule.maxLength} characters long`
  }
  // Checked on the text: the URL parser drops an empty '?' or '#', which would then pass unseen.
  if (/[?#]/.test(value)) return `${field} must not have a query string or fragment`
  const notAWebhook = `${field} must be a ${rule.provider} webhook URL (${rule.form})`
  const allowLocal = localTargetsAllowed(env)
  const problem = outboundTargetProblem(value, ['https:'], allowLocal)
  if (problem === 'credentials') return `${field} must not contain credentials`
  if (problem) return notAWebhook
  const url = new URL(value)
  if (allowLocal && isNonPublicHost(url.hostname)) {
    return rule.localPath.test(url.pathname) ? undefined : notAWebhook
  }
  const onProvider = url.protocol === 'https:' && url.port === '' && rule.hosts.has(url.hostname)
  return onProvider && rule.path.test(url.pathname) ? undefined : notAWebhook
}

/** The URL without its last path segment, the token: the token alone lets anyone post. */
export function maskWebhookUrl(value: string): string {
  try {
    const url = new URL(value)
    return `${url.origin}${url.pathname.replace(/\/[^/]*$/, '')}/…`
  } catch {
    return '…'
  }
}

// Where a webhook may be delivered: public https addresses only, unless the local-runs setting
// allows http and private or loopback receivers. Checked at creation and again at each delivery.
import { targetUrlProblem, type TargetUrlProblem } from '../lib/ip-targets.ts'

const MESSAGES: Record<TargetUrlProblem, string> = {
  invalid: 'url must be a URL address',
  scheme: 'url must use https',
  credentials: 'url must not contain credentials',
  non_public: 'url must not point to a private, loopback or link-local address',
}

/** Why `url` may not receive webhooks, in the API's wording; undefined when it may. */
export function webhookTargetProblem(url: string, allowPrivate: boolean): string | undefined {
  const problem = allowPrivate
    ? targetUrlProblem(url, ['http:', 'https:'])
    : targetUrlProblem(url, ['https:'])
  if (!problem || (allowPrivate && problem === 'non_public')) return undefined
  return MESSAGES[problem]
}

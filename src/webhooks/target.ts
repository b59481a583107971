// Where a webhook may be delivered: public https addresses only, unless the local-run switch
// (lib/outbound-targets.ts) admits http and private or loopback receivers. Checked at creation and
// again at each delivery.
import type { TargetUrlProblem } from '../lib/ip-targets.ts'
import { outboundTargetProblem } from '../lib/outbound-targets.ts'

const MESSAGES: Record<TargetUrlProblem, string> = {
  invalid: 'url must be a URL address',
  scheme: 'url must use https',
  credentials: 'url must not contain credentials',
  non_public: 'url must not point to a private, loopback or link-local address',
}

/** Why `url` may not receive webhooks, in the API's wording; undefined when it may. */
export function webhookTargetProblem(url: string, allowLocal: boolean): string | undefined {
  const problem = outboundTargetProblem(url, ['https:'], allowLocal)
  return problem && MESSAGES[problem]
}

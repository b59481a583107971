// Which push endpoints the Worker may POST to: https URLs of the push services browsers use
// (PUSH_SERVICE_HOSTS), checked at registration and again before each send, so a subscription
// cannot turn the Worker into a client of an internal address or of any other site. A local run
// (ALLOW_LOCAL_TARGETS) also admits loopback and private hosts, for a stand-in push service.
import { settings, type Env } from '../../env.ts'
import { isNonPublicHost, type TargetUrlProblem } from '../../lib/ip-targets.ts'
import { localTargetsAllowed, outboundTargetProblem } from '../../lib/outbound-targets.ts'

const MESSAGES: Record<TargetUrlProblem, string> = {
  invalid: 'endpoint must be an https URL',
  scheme: 'endpoint must be an https URL',
  credentials: 'endpoint must not contain credentials',
  non_public: 'endpoint must not point to a private, loopback or link-local address',
}
const UNKNOWN_PUSH_SERVICE = 'endpoint must belong to a known push service'

/** `*.example.com` matches every name below example.com (not itself); anything else exactly. */
function hostMatches(host: string, pattern: string): boolean {
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1))
  return host === pattern
}

/** Why the Worker may not send to `endpoint`, in the API's wording; undefined when it may. */
export function pushEndpointProblem(env: Env, endpoint: string): string | undefined {
  const allowLocal = localTargetsAllowed(env)
  const problem = outboundTargetProblem(endpoint, ['https:'], allowLocal)
  if (problem) return MESSAGES[problem]
  const url = new URL(endpoint)
  const host = url.hostname.replace(/\.+$/, '')
  if (allowLocal && isNonPublicHost(host)) return undefined
  if (url.protocol !== 'https:') return MESSAGES.scheme
  // The real services listen on 443 only; another port would reach something else on their hosts.
  if (url.port !== '') return UNKNOWN_PUSH_SERVICE
  const known = settings(env).PUSH_SERVICE_HOSTS.some((pattern) => hostMatches(host, pattern))
  return known ? undefined : UNKNOWN_PUSH_SERVICE
}

// The one rule for every URL the Worker (or a service it drives) is asked to reach on a caller's
// behalf: webhooks, url resources and push endpoints. ALLOW_LOCAL_TARGETS, for local runs only,
// lifts the private-address and https rules for all of them at once, so one switch decides.
import { settings, type Env } from '../env.ts'
import { targetUrlProblem, type TargetUrlProblem } from './ip-targets.ts'

const LOCAL_SCHEMES = ['http:', 'https:'] as const

/** Whether this deployment is a local run that may reach loopback, private and http targets. */
export function localTargetsAllowed(env: Env): boolean {
  return settings(env).ALLOW_LOCAL_TARGETS
}

/**
 * Why `url` may not be reached, or undefined when it may: it must use one of `schemes`, carry no
 * credentials and name a public host; a local run also admits http and non-public hosts.
 */
export function outboundTargetProblem(
  url: string,
  schemes: readonly string[],
  allowLocal: boolean,
): TargetUrlProblem | undefined {
  const problem = targetUrlProblem(url, allowLocal ? LOCAL_SCHEMES : schemes)
  return allowLocal && problem === 'non_public' ? undefined : problem
}

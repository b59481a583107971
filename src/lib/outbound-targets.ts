// The one rule for every URL the Worker (or a service it drives) is asked to reach on a caller's
// behalf: webhooks, url resources, push endpoints, Slack and Discord webhooks. ALLOW_LOCAL_TARGETS,
// for local runs only, lifts the private-address and https rules for all of them at once, so one
// switch decides; link-local and cloud metadata addresses stay refused even then.
import { settings, type Env } from '../env.ts'
import { isLinkLocalOrMetadataHost, targetUrlProblem, type TargetUrlProblem } from './ip-targets.ts'

const LOCAL_SCHEMES = ['http:', 'https:'] as const

/** Whether this deployment is a local run that may reach loopback, private and http targets. */
export function localTargetsAllowed(env: Env): boolean {
  return settings(env).ALLOW_LOCAL_TARGETS
}

/**
 * Why `url` may not be reached, or undefined when it may: it must use one of `schemes`, carry no
 * credentials and name a public host; a local run also admits http and loopback or private hosts,
 * never a link-local or metadata one (169.254.169.254 hands out a cloud host's credentials).
 */
export function outboundTargetProblem(
  url: string,
  schemes: readonly string[],
  allowLocal: boolean,
): TargetUrlProblem | undefined {
  const problem = targetUrlProblem(url, allowLocal ? LOCAL_SCHEMES : schemes)
  if (!allowLocal || problem !== 'non_public') return problem
  return isLinkLocalOrMetadataHost(new URL(url).hostname) ? problem : undefined
}

// Whether a resource's source_url may be forwarded to the intelligence service, which fetches it
// from inside its network: a public address, unless the local-run switch admits private ones.
import type { Env } from '../env.ts'
import { badRequest } from '../lib/errors.ts'
import { localTargetsAllowed, outboundTargetProblem } from '../lib/outbound-targets.ts'
import { URL_PROBLEMS } from './schemas.ts'

/** Throws the 400 of a source_url that may not be fetched; a body without one passes. */
export function assertSourceUrlAllowed(env: Env, sourceUrl: string | undefined): void {
  if (sourceUrl === undefined) return
  const problem = outboundTargetProblem(sourceUrl, ['http:', 'https:'], localTargetsAllowed(env))
  if (problem) throw badRequest([URL_PROBLEMS[problem]])
}

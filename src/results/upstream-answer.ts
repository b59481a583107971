// A judge's failure to answer, as the API tells it: never a 500, since the service did nothing
// wrong. 503 when the judge is away or holding us off (a timeout, its 503, its rate limit or bot
// wall), which time mends; 502 when it answered something the service cannot read.
import { ApiError } from '../lib/errors.ts'
import { UpstreamError } from '../platforms/upstream.ts'

/** Runs one request to the judge, turning its UpstreamError into the API's 502 or 503. */
export async function askJudge<T>(judgeName: string, ask: () => Promise<T>): Promise<T> {
  try {
    return await ask()
  } catch (error) {
    if (error instanceof UpstreamError) throw judgeFailure(judgeName, error)
    throw error
  }
}

export function judgeFailure(judgeName: string, error: UpstreamError): ApiError {
  const away = error.kind === 'timeout' || error.kind === 'network' || error.status === 503
  if (away || error.blocked) {
    const why =
      error.kind === 'timeout' || error.kind === 'network'
        ? 'did not answer'
        : `answered HTTP ${error.status}`
    return new ApiError(503, `${judgeName} ${why}; try again in a few minutes`)
  }
  const why = error.kind === 'status' ? `HTTP ${error.status}` : `${error.kind} answer`
  return new ApiError(
    502,
    `${judgeName} gave an answer the service cannot read (${why}); try again later`,
  )
}

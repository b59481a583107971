// The refusals of the account functions that a form answers itself (a wrong password, a used
// code), told apart from everything else, which goes on to the error handler.
import { ApiError } from '../../lib/errors.ts'

/** The status of an ApiError among `statuses`; anything else is thrown again. */
export function refusal<S extends number>(error: unknown, statuses: readonly S[]): S {
  if (error instanceof ApiError && (statuses as readonly number[]).includes(error.status)) {
    return error.status as S
  }
  throw error
}

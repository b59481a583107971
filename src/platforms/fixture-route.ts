// A recorded answer of a judge, as the descriptors declare it and the stand-ins serve it.

/** One recorded answer of the platform, served by the stand-ins at the path the source calls. */
export interface FixtureRoute {
  method: 'GET' | 'POST'
  /**
   * The path under the upstream base, with the query parameters that tell pages apart
   * ("/contests?page=2"); other query parameters are ignored when matching.
   */
  path: string
  /**
   * JSON fields the request's body must hold (GraphQL's operationName and variables), for answers
   * posted to one path that only the body tells apart; other fields are ignored when matching.
   */
  body?: Readonly<Record<string, unknown>>
  /** The recorded file, relative to the platform's folder ("fixtures/contest-list.json"). */
  file: string
  contentType: string
  /** The text with every time moved forward by `shiftMs` (whole weeks). */
  shift(text: string, shiftMs: number): string
}

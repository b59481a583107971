// Secrets that travel in URLs, found in any text the service logs and replaced by [redacted]: the
// capability paths and token-bearing query parameters of our own routes and of our providers'.

export const REDACTED = '[redacted]'

// What may follow a secret in a URL inside text: anything but a separator, quote or space.
const PART = String.raw`[^/?#&\s"'<>]+`

/** Each pattern keeps its first group (where the secret sits) and drops the secret itself. */
const SECRETS: RegExp[] = [
  // The private calendar feed: /calendar/<token>.ics opens a user's feed with nothing else.
  new RegExp(String.raw`(/calendar/)${PART}(?=\.ics)`, 'g'),
  // Signed links (mute, one-click unsubscribe, unlink), Google's code and state, any API key or
  // signature a query carries.
  new RegExp(
    String.raw`([?&](?:token|code|state|key|secret|sig|signature|auth|access_token|refresh_token|id_token)=)[^&#\s"'<>]+`,
    'gi',
  ),
  // The Telegram Bot API's token is part of every method's path.
  new RegExp(String.raw`(/bot)\d+:[A-Za-z0-9_-]+`, 'g'),
  // A Discord webhook's token is the path's last part.
  new RegExp(String.raw`(/api(?:/v\d+)?/webhooks/\d+/)${PART}`, 'g'),
  // So is a Slack incoming webhook's.
  new RegExp(String.raw`(/services/T[A-Z0-9]+/B[A-Z0-9]+/)${PART}`, 'g'),
  // A push endpoint's path is the subscription's capability: only the service's origin stays.
  new RegExp(
    String.raw`(https://(?:[a-z0-9-]+\.)*(?:fcm\.googleapis\.com|android\.googleapis\.com|push\.services\.mozilla\.com|notify\.windows\.com|push\.apple\.com)/)[^\s"'<>]+`,
    'gi',
  ),
  // A bearer token (a JWT) quoted anywhere.
  /()\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g,
]

/** `text` with every secret of SECRETS replaced by [redacted]. */
export function redactSecrets(text: string): string {
  let redacted = text
  for (const pattern of SECRETS) redacted = redacted.replace(pattern, `$1${REDACTED}`)
  return redacted
}

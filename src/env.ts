// The Worker's bindings and its settings, parsed once per env object with real types.
import { z } from 'zod'

/**
 * The secrets the schema below reads (`wrangler secret put`, .dev.vars locally): credentials and
 * what is kept with them. `npm run deploy` sets these as secrets (scripts/lib/deploy-config.mjs).
 * Bindings and [vars] come from worker-configuration.d.ts (`npm run cf-typegen`); a value may be
 * absent, so all are optional.
 */
interface Secrets {
  JWT_SECRET?: string
  JWT_SECRET_PREVIOUS?: string
  BOOTSTRAP_ADMIN_EMAILS?: string
  CONTACT_EMAIL?: string
  RESEND_API_KEY?: string
  RESEND_WEBHOOK_SECRET?: string
  WHATSAPP_TOKEN?: string
  WHATSAPP_PHONE_NUMBER_ID?: string
  VAPID_PUBLIC_KEY?: string
  VAPID_PRIVATE_KEY?: string
  VAPID_SUBJECT?: string
  TELEGRAM_BOT_TOKEN?: string
  TELEGRAM_BOT_USERNAME?: string
  TELEGRAM_WEBHOOK_SECRET?: string
  DISCORD_APPLICATION_ID?: string
  DISCORD_PUBLIC_KEY?: string
  DISCORD_BOT_TOKEN?: string
  GOOGLE_CLIENT_ID?: string
  GOOGLE_CLIENT_SECRET?: string
  CLIST_API_KEY?: string
}

/**
 * Settings wrangler.toml does not list, whose defaults are in the schema below: switches, upstream
 * addresses and tuning. Vars, not secrets: `npm run deploy` uploads them as plain vars, and
 * `[vars]` or .dev.vars may set them (docs/settings.md, "var, default in code").
 */
interface CodeDefaults {
  WHATSAPP_TEMPLATE_NAME?: string
  WHATSAPP_TEMPLATE_LANGUAGE?: string
  INTELLIGENCE_URL?: string
  TELEGRAM_API_URL?: string
  DISCORD_ENABLED?: string
  DISCORD_API_URL?: string
  SLACK_ENABLED?: string
  GOOGLE_AUTH_URL?: string
  GOOGLE_TOKEN_URL?: string
  GOOGLE_JWKS_URL?: string
  GOOGLE_CLIENT_REDIRECTS?: string
  CLIST_PLATFORMS?: string
  CLIST_REQUESTS_PER_MINUTE?: string
}

// Merged into the generated Cloudflare.Env, so every env the runtime hands over (handlers,
// `cloudflare:workers`, `cloudflare:test`) carries them, not only values typed with Env below.
declare global {
  namespace Cloudflare {
    interface Env extends Secrets, CodeDefaults {}
  }
}

/** The bindings of wrangler.toml, its [vars] and the secrets, as the Worker receives them. */
export type Env = Cloudflare.Env

const bool = z
  .union([z.boolean(), z.string()])
  .transform((v) => v === true || v === 'true' || v === '1')
const int = (fallback: number) => z.coerce.number().int().positive().default(fallback)
const optional = z
  .string()
  .optional()
  .transform((v) => (v ? v : undefined))

// The push services of Chrome (FCM; android.googleapis.com for old GCM subscriptions), Firefox
// (Mozilla autopush), Edge (Windows Notification Service) and Safari (Apple).
const DEFAULT_PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'updates.push.services.mozilla.com',
  '*.push.services.mozilla.com',
  '*.notify.windows.com',
  'web.push.apple.com',
  '*.push.apple.com',
].join(',')

function hostPatterns(value: string): string[] {
  const patterns = value.split(',').map((h) => h.trim().toLowerCase())
  return patterns.filter(Boolean)
}

/** The headers a proxy may be trusted to set to the client's address, lower case. */
export const PROXY_HEADERS = ['x-forwarded-for', 'x-real-ip', 'cf-connecting-ip'] as const
export type ProxyHeader = (typeof PROXY_HEADERS)[number]

/**
 * TRUST_PROXY_HEADER read: the header named (any case), none for '' or 'false', or why the value
 * is refused. The old `true` trusted two headers at once, one of which a proxy passes through
 * from the client untouched, so it is refused rather than guessed at (docs/decisions.md, D58).
 */
export function proxyHeaderSetting(value: string): { header?: ProxyHeader; refused?: string } {
  const name = value.trim().toLowerCase()
  if (name === '' || name === 'false' || name === '0') return {}
  const header = PROXY_HEADERS.find((h) => h === name)
  if (header) return { header }
  return {
    refused:
      `TRUST_PROXY_HEADER=${value.trim()} is not accepted: set it to the one header your proxy ` +
      'writes the client address into (X-Forwarded-For, X-Real-IP or CF-Connecting-IP), or ' +
      'leave it empty to use the socket address (docs/deno.md, "Deploying on Deno")',
  }
}

const settingsSchema = z.object({
  APP_URL: z.string().default('http://localhost:8787'),
  JWT_SECRET: optional,
  // Set only while JWT_SECRET rotates: what it held before, still accepted for what it signed
  // (access tokens, signed links) and opened (webhook secrets) until removed (docs/operations.md).
  JWT_SECRET_PREVIOUS: optional,
  JWT_ISSUER: z.string().default('contest-alert-service'),
  JWT_AUDIENCE: z.string().default('contest-alert-api'),
  BOOTSTRAP_ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    ),
  FROM_EMAIL: z.string().default('Contest Alerts <alerts@contest-alert.dev>'),
  CONTACT_EMAIL: optional,
  RESEND_API_KEY: optional,
  RESEND_API_URL: z.string().default('https://api.resend.com'),
  // The signing secret (`whsec_...`) of the Resend webhook that reports bounces and complaints.
  RESEND_WEBHOOK_SECRET: optional,
  WHATSAPP_TOKEN: optional,
  WHATSAPP_PHONE_NUMBER_ID: optional,
  WHATSAPP_API_URL: z.string().default('https://graph.facebook.com/v21.0'),
  // An approved template with two body variables: {{1}} the title, {{2}} the message.
  WHATSAPP_TEMPLATE_NAME: z.string().default('contest_alert'),
  // An approved authentication-category template (copy-code button) that carries phone codes.
  WHATSAPP_AUTH_TEMPLATE_NAME: z.string().default('verification_code'),
  WHATSAPP_TEMPLATE_LANGUAGE: z.string().default('en'),
  VAPID_PUBLIC_KEY: optional,
  VAPID_PRIVATE_KEY: optional,
  VAPID_SUBJECT: optional,
  // Hosts a push endpoint may name, comma-separated; `*.example.com` matches any subdomain.
  PUSH_SERVICE_HOSTS: z.string().default(DEFAULT_PUSH_SERVICE_HOSTS).transform(hostPatterns),
  // Each platform's upstream base URL is read by the sync from its own var (the platform's module
  // names it), so a platform is added without touching this schema.
  // clist.by API v4, the second source: `username:key`; without it clist is off.
  CLIST_API_KEY: optional,
  CLIST_API_URL: z.string().default('https://clist.by/api/v4'),
  // Long-tail platforms (registry ids with no source of their own) followed through clist.by.
  CLIST_PLATFORMS: z
    .string()
    .default('topcoder,kattis,toph,codingame,kaggle,meta-hacker-cup,icpc')
    .transform((v) =>
      v
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    ),
  // clist.by's default allowance; every sync in every isolate shares it.
  CLIST_REQUESTS_PER_MINUTE: int(10),
  INTELLIGENCE_URL: optional,
  // The Telegram bot: its token and @username (deep links), and the secret Telegram echoes in
  // X-Telegram-Bot-Api-Secret-Token on every webhook call (set with setWebhook).
  TELEGRAM_BOT_TOKEN: optional,
  TELEGRAM_BOT_USERNAME: optional,
  TELEGRAM_WEBHOOK_SECRET: optional,
  TELEGRAM_API_URL: z.string().default('https://api.telegram.org'),
  // Discord webhooks need no credentials of ours; this turns the channel off (abuse, an outage).
  DISCORD_ENABLED: bool.default(true),
  // The Discord application (its slash commands over HTTP interactions): the id and the hex public
  // key the Developer Portal shows, the bot's token, and the API (a stand-in in tests).
  DISCORD_APPLICATION_ID: optional,
  DISCORD_PUBLIC_KEY: optional,
  DISCORD_BOT_TOKEN: optional,
  DISCORD_API_URL: z.string().default('https://discord.com/api/v10'),
  SLACK_ENABLED: bool.default(true),
  // Sign in with Google: the OAuth client, and Google's endpoints (overridable so a loopback
  // stand-in can play Google). Without the client id and secret the routes answer 503.
  GOOGLE_CLIENT_ID: optional,
  GOOGLE_CLIENT_SECRET: optional,
  GOOGLE_AUTH_URL: z.string().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.string().default('https://oauth2.googleapis.com/token'),
  GOOGLE_JWKS_URL: z.string().default('https://www.googleapis.com/oauth2/v3/certs'),
  // Client URLs, besides APP_URL's origin, that may receive the result: exact, comma-separated.
  GOOGLE_CLIENT_REDIRECTS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean),
    ),
  NOTIFY_WINDOW_HOURS: int(24),
  CONTEST_RETENTION_DAYS: int(90),
  NOTIFICATION_TTL_DAYS: int(90),
  DEV_OUTBOX: bool.default(false),
  // Only for load tests of the catalogue: every rate limit is skipped when true.
  RATE_LIMIT_DISABLED: bool.default(false),
  // Runtimes other than Workers: the one header the proxy in front writes the client's address
  // into (X-Forwarded-For, X-Real-IP or CF-Connecting-IP), or empty for the socket's peer.
  // Ignored on Workers, whose edge sets CF-Connecting-IP itself.
  TRUST_PROXY_HEADER: z.string().default('').transform(proxyHeaderSetting),
  // With X-Forwarded-For: how many proxies in front append to it; the client is that many
  // entries from the right, and whatever stands further left was written by the client.
  TRUSTED_PROXY_HOPS: int(1),
  // Local runs only: webhooks, url resources and push endpoints may then target http and
  // private or loopback addresses (push endpoints on such hosts skip PUSH_SERVICE_HOSTS).
  ALLOW_LOCAL_TARGETS: bool.default(false),
})

export type Settings = z.infer<typeof settingsSchema>

const cache = new WeakMap<object, Settings>()

export function settings(env: Env): Settings {
  let parsed = cache.get(env)
  if (!parsed) {
    parsed = settingsSchema.parse(env)
    cache.set(env, parsed)
  }
  return parsed
}

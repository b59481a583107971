// `npm run deploy [-- --env staging] [-- --replace-secret NAME]`: deploys the service to the
// Cloudflare account of CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID, creating what is missing,
// and changes nothing when run again. Steps, each stopping the deploy when it fails: credentials;
// the D1 database, KV namespace and queues (found by name, created when absent); the generated
// wrangler configuration with their ids; the secrets to set; D1 migrations; the upload (code and
// secrets as one version); the Telegram webhook and commands; a check of the live service.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import {
  DEPLOY_SETTINGS,
  deployConfig,
  generatedConfigPath,
  parseVars,
  readWranglerToml,
  resourcesOf,
  secretNames,
  varsFileName,
  writeDeployConfig,
} from './lib/deploy-config.mjs'
import { planSecrets } from './lib/deploy-secrets.mjs'
import { jsonArrayIn, queueNamesIn, workerMissing, wrangler } from './lib/deploy-wrangler.mjs'
import { BOT_COMMANDS, ALLOWED_UPDATES, telegramBot, webhookUrl } from './lib/telegram-api.mjs'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const started = Date.now()
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`

class DeployError extends Error {
  constructor(message, code = 1) {
    super(message)
    this.exitCode = code
  }
}

const USAGE = `Usage: npm run deploy [-- --env <name>] [-- --replace-secret <NAME> ...]

  --env <name>             a separate environment: the Worker <name>-suffixed, its own
                           database, namespace, queues and secrets (default: production)
  --replace-secret <NAME>  set NAME even though the Worker has it: a generated secret is
                           generated again, a provided one takes the given value

Reads CLOUDFLARE_API_TOKEN, CLOUDFLARE_ACCOUNT_ID, provider keys and settings from the
environment or from .deploy.vars (.deploy.<env>.vars), which git ignores. SMOKE_URL sets the
address checked after the upload; SMOKE_URL=off skips the check.`

// A channel is off while any of its settings is missing (src/channels/*.ts).
const CHANNEL_NEEDS = {
  email: ['RESEND_API_KEY'],
  whatsapp: ['WHATSAPP_TOKEN', 'WHATSAPP_PHONE_NUMBER_ID'],
  push: ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'],
  telegram: ['TELEGRAM_BOT_TOKEN'],
  'Google sign-in': ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
}

function readOptions() {
  const { values } = parseArgs({
    options: {
      env: { type: 'string' },
      'replace-secret': { type: 'string', multiple: true },
      help: { type: 'boolean' },
    },
  })
  if (values.help) {
    console.log(USAGE)
    process.exit(0)
  }
  const env = values.env ?? 'production'
  if (!/^[a-z0-9][a-z0-9-]{0,20}$/.test(env)) {
    throw new DeployError(`--env takes lowercase letters, digits and dashes, not "${env}"`, 2)
  }
  return { env, replace: values['replace-secret'] ?? [] }
}

/** The settings given: the vars file, then the environment over it (only names it knows). */
function readSettings(env, toml) {
  const file = join(ROOT, varsFileName(env))
  let fromFile = {}
  if (existsSync(file)) {
    try {
      fromFile = parseVars(readFileSync(file, 'utf8'))
    } catch (error) {
      throw new DeployError(`${varsFileName(env)}: ${error.message}`, 2)
    }
  }
  const secrets = secretNames(ROOT)
  const vars = Object.keys(toml.vars ?? {})
  const known = new Set([...secrets, ...vars, ...DEPLOY_SETTINGS])
  const unknown = Object.keys(fromFile).filter((name) => !known.has(name))
  if (unknown.length > 0) {
    console.warn(
      `${varsFileName(env)}: ignoring ${unknown.join(', ')} (not a setting of the service)`,
    )
  }
  const pick = (names) => {
    const picked = {}
    for (const name of names) {
      const value = process.env[name] ?? fromFile[name]
      if (value !== undefined && value !== '') picked[name] = value
    }
    return picked
  }
  return {
    file: existsSync(file) ? varsFileName(env) : undefined,
    secretNames: secrets,
    secrets: pick(secrets),
    vars: pick(vars),
    deploy: pick(DEPLOY_SETTINGS),
  }
}

/** Both credentials present and accepted for the account; answers its workers.dev subdomain. */
async function checkCredentials(settings) {
  const { CLOUDFLARE_API_TOKEN: token, CLOUDFLARE_ACCOUNT_ID: account } = settings.deploy
  const permissions =
    'an API token (dash.cloudflare.com/profile/api-tokens) from the "Edit Cloudflare Workers" ' +
    'template with D1: Edit and Queues: Edit added'
  const missing = []
  if (!token) missing.push(`CLOUDFLARE_API_TOKEN (${permissions})`)
  if (!account) {
    missing.push('CLOUDFLARE_ACCOUNT_ID (the account id: dash.cloudflare.com, Workers & Pages)')
  }
  if (missing.length > 0) {
    const where = settings.file ?? '.deploy.vars'
    throw new DeployError(
      `Missing credentials, so nothing was changed:\n${missing.map((m) => `  - ${m}`).join('\n')}\n` +
        `Set them in the environment or in ${where} (git-ignored).`,
      2,
    )
  }
  const base = (
    settings.deploy.CLOUDFLARE_API_BASE_URL || 'https://api.cloudflare.com/client/v4'
  ).replace(/\/+$/, '')
  let res
  try {
    res = await fetch(`${base}/accounts/${account}/workers/subdomain`, {
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(20_000),
    })
  } catch (error) {
    throw new DeployError(
      `Cannot reach the Cloudflare API at ${base}: ${error.cause?.message ?? error.message}`,
    )
  }
  const answer = await res.json().catch(() => ({}))
  const code = answer.errors?.[0]?.code
  if (answer.success && answer.result?.subdomain) return answer.result.subdomain
  if (code === 10007) {
    throw new DeployError(
      `The account has no workers.dev subdomain yet: choose one once at ` +
        `https://dash.cloudflare.com/${account}/workers/onboarding, then run the deploy again.`,
    )
  }
  const reason = answer.errors?.map((e) => `${e.message} [code: ${e.code}]`).join('; ')
  throw new DeployError(
    `Cloudflare refused the credentials for account ${account} (${res.status}: ${reason ?? 'no reason'}).\n` +
      `Check CLOUDFLARE_ACCOUNT_ID, and that CLOUDFLARE_API_TOKEN is ${permissions}.`,
    2,
  )
}

async function main() {
  const options = readOptions()
  const toml = readWranglerToml(ROOT)
  const settings = readSettings(options.env, toml)
  const unknownReplace = options.replace.filter((n) => !settings.secretNames.includes(n))
  if (unknownReplace.length > 0) {
    throw new DeployError(
      `--replace-secret: ${unknownReplace.join(', ')} is not a secret of the Worker`,
      2,
    )
  }
  const resources = resourcesOf(toml, options.env)
  const subdomain = await checkCredentials(settings)
  const workersDevUrl = `https://${resources.worker}.${subdomain}.workers.dev`
  const appUrl = settings.vars.APP_URL ?? workersDevUrl
  console.log(
    `Deploying ${resources.worker} (${options.env}) to account ${settings.deploy.CLOUDFLARE_ACCOUNT_ID}`,
  )
  if (settings.file) console.log(`  settings from the environment and ${settings.file}`)

  const env = {
    ...process.env,
    ...settings.deploy,
    WRANGLER_HIDE_BANNER: 'true',
  }
  const run = (args, echo) => wrangler(args, { cwd: ROOT, env, echo })
  const must = async (what, args, echo = false) => {
    const result = await run(args, echo)
    if (result.code !== 0) {
      if (!echo) process.stderr.write(result.output)
      throw new DeployError(`${what} failed (wrangler ${args.slice(0, 3).join(' ')}): see above.`)
    }
    return result
  }

  // 1. Resources, found by name; what is missing is created, then looked up again for its id.
  let step = Date.now()
  const listD1 = async () =>
    jsonArrayIn((await must('Listing D1 databases', ['d1', 'list', '--json'])).stdout)
  const listKv = async () =>
    jsonArrayIn((await must('Listing KV namespaces', ['kv', 'namespace', 'list'])).stdout)
  const listQueues = async () =>
    queueNamesIn((await must('Listing queues', ['queues', 'list'])).stdout)
  const listSecrets = async () => {
    const result = await run(['secret', 'list', '--name', resources.worker, '--format', 'json'])
    if (result.code === 0) return jsonArrayIn(result.stdout).map((s) => s.name)
    // A Worker not uploaded yet has no secrets.
    if (workerMissing(result.output)) return []
    process.stderr.write(result.output)
    throw new DeployError("Listing the Worker's secrets failed: see above.")
  }
  let [d1s, namespaces, queues, existingSecrets] = await Promise.all([
    listD1(),
    listKv(),
    listQueues(),
    listSecrets(),
  ])
  const created = []
  const creates = []
  for (const { name } of resources.d1) {
    if (!d1s.some((d) => d.name === name)) {
      creates.push(() => must(`Creating D1 database ${name}`, ['d1', 'create', name]))
      created.push(`D1 database ${name}`)
    }
  }
  for (const { name } of resources.kv) {
    if (!namespaces.some((n) => n.title === name)) {
      creates.push(() => must(`Creating KV namespace ${name}`, ['kv', 'namespace', 'create', name]))
      created.push(`KV namespace ${name}`)
    }
  }
  // Dead-letter queues are plain queues; consumers name them, so all exist before the upload.
  for (const { name } of resources.queues) {
    if (!queues.includes(name)) {
      creates.push(() => must(`Creating queue ${name}`, ['queues', 'create', name]))
      created.push(`queue ${name}`)
    }
  }
  // Two at a time: each is a wrangler process.
  for (let i = 0; i < creates.length; i += 2)
    await Promise.all(creates.slice(i, i + 2).map((c) => c()))
  if (created.some((c) => c.startsWith('D1'))) d1s = await listD1()
  if (created.some((c) => c.startsWith('KV'))) namespaces = await listKv()
  const ids = {}
  for (const { name } of resources.d1) ids[name] = d1s.find((d) => d.name === name)?.uuid
  for (const { name } of resources.kv) ids[name] = namespaces.find((n) => n.title === name)?.id
  for (const [name, id] of Object.entries(ids)) {
    if (!id) throw new DeployError(`${name} was created but is not listed: run the deploy again.`)
  }
  console.log(`Resources (${seconds(step)}):`)
  for (const { binding, name } of resources.d1) console.log(`  D1 ${binding}: ${name} ${ids[name]}`)
  for (const { binding, name } of resources.kv) console.log(`  KV ${binding}: ${name} ${ids[name]}`)
  console.log(`  queues: ${resources.queues.map((q) => q.name).join(', ')}`)
  console.log(
    created.length > 0 ? `  created: ${created.join(', ')}` : '  created: nothing (all found)',
  )

  // 2. The configuration wrangler reads, with those ids; rebuilt every run, never edited.
  const configPath = generatedConfigPath(ROOT, options.env)
  const vars = { ...settings.vars, APP_URL: appUrl }
  writeDeployConfig(
    configPath,
    deployConfig({ toml, env: options.env, ids, vars, root: ROOT, path: configPath }),
  )
  console.log(`  ids recorded in ${relative(ROOT, configPath)}`)

  // 3. The secrets to set, decided before anything changes. A Telegram webhook that must be
  // registered (first time, or APP_URL moved) gets its secret set with it: the value Telegram
  // will echo has to be one this run knows, and the Worker's copy the same.
  const bot = settings.secrets.TELEGRAM_BOT_TOKEN
    ? telegramBot({
        token: settings.secrets.TELEGRAM_BOT_TOKEN,
        apiUrl: settings.secrets.TELEGRAM_API_URL,
      })
    : undefined
  let webhook
  if (bot) {
    const [info, commands] = await telegram('Nothing was changed', () =>
      Promise.all([bot.webhookInfo(), bot.commands()]),
    )
    const current =
      info.url === webhookUrl(appUrl) &&
      JSON.stringify(info.allowed_updates ?? []) === JSON.stringify(ALLOWED_UPDATES)
    webhook = {
      register: !current,
      commands: JSON.stringify(commands) !== JSON.stringify(BOT_COMMANDS),
    }
  }
  const replace = [...options.replace]
  if (webhook?.register && !replace.includes('TELEGRAM_WEBHOOK_SECRET')) {
    replace.push('TELEGRAM_WEBHOOK_SECRET')
  }
  const plan = planSecrets({
    existing: existingSecrets,
    provided: settings.secrets,
    replace,
    wantTelegramSecret: !!bot || existingSecrets.includes('TELEGRAM_BOT_TOKEN'),
  })
  if (
    !bot &&
    'TELEGRAM_WEBHOOK_SECRET' in plan.values &&
    existingSecrets.includes('TELEGRAM_BOT_TOKEN')
  ) {
    plan.problems.push(
      'TELEGRAM_WEBHOOK_SECRET is replaced only with TELEGRAM_BOT_TOKEN given, so that the ' +
        'webhook is registered again with it',
    )
  }
  if (plan.problems.length > 0) {
    throw new DeployError(
      `Nothing was changed:\n${plan.problems.map((p) => `  - ${p}`).join('\n')}`,
      2,
    )
  }
  if (webhook) {
    webhook.secret = plan.values.TELEGRAM_WEBHOOK_SECRET
    webhook.register ||= webhook.secret !== undefined
  }
  const setNames = Object.keys(plan.values)
  if (setNames.length === 0) console.log('Secrets: none to set')
  else {
    const label = (n) => (plan.generated.includes(n) ? `${n} (generated)` : n)
    console.log(`Secrets to set with the upload: ${setNames.map(label).join(', ')}`)
  }
  if (plan.kept.length > 0) {
    console.log(`  kept as set: ${plan.kept.join(', ')} (--replace-secret NAME replaces one)`)
  }

  // 4. Migrations, before any code: a failure leaves the version deployed before serving.
  step = Date.now()
  console.log('D1 migrations:')
  const migrations = await run(
    ['d1', 'migrations', 'apply', resources.d1[0].binding, '--remote', '--config', configPath],
    true,
  )
  if (migrations.code !== 0 || migrations.output.includes('\u274C')) {
    const failed = /Migration (\S+) failed/.exec(migrations.output)?.[1]
    throw new DeployError(
      `${failed ? `Migration ${failed}` : 'A D1 migration'} failed, so nothing was uploaded: the ` +
        'version deployed before keeps serving. Migrations listed above as applied stay applied. ' +
        'Fix the migration and run the deploy again.',
    )
  }
  console.log(`  (${seconds(step)})`)

  // 5. The upload: code, bindings, crons and the secrets to set, as one version.
  step = Date.now()
  console.log('Upload:')
  const deployArgs = ['deploy', '--config', configPath]
  let secretsDir
  try {
    if (setNames.length > 0) {
      secretsDir = mkdtempSync(join(tmpdir(), 'contest-alert-deploy-'))
      const file = join(secretsDir, 'secrets.json')
      writeFileSync(file, JSON.stringify(plan.values), { mode: 0o600 })
      deployArgs.push('--secrets-file', file)
    }
    const upload = await run(deployArgs, true)
    if (upload.code !== 0) throw new DeployError('The upload failed: see above.')
  } finally {
    if (secretsDir) rmSync(secretsDir, { recursive: true, force: true })
  }
  console.log(`  (${seconds(step)})`)

  // 6. Telegram: the webhook with its secret token, and the bot's commands.
  const afterUpload = 'The Worker is uploaded, but Telegram is not set up: run the deploy again'
  if (webhook) {
    if (webhook.register) {
      await telegram(afterUpload, () => bot.setWebhook(appUrl, webhook.secret))
      console.log(`Telegram: webhook set to ${webhookUrl(appUrl)}`)
    } else console.log('Telegram: webhook already set')
    if (webhook.commands) {
      await telegram(afterUpload, () => bot.setCommands(BOT_COMMANDS))
      console.log(`Telegram: commands set (${BOT_COMMANDS.map((c) => `/${c.command}`).join(', ')})`)
    } else console.log('Telegram: commands already set')
  } else if (existingSecrets.includes('TELEGRAM_BOT_TOKEN')) {
    console.log(
      'Telegram: not checked (TELEGRAM_BOT_TOKEN is set on the Worker but not given here)',
    )
  }

  // 7. The live service answers.
  // The address users are given: a custom domain (APP_URL) or the workers.dev one.
  const smokeUrl = settings.deploy.SMOKE_URL ?? appUrl
  if (smokeUrl === 'off') console.log('Check: skipped (SMOKE_URL=off)')
  else {
    step = Date.now()
    await smokeCheck(smokeUrl)
    console.log(
      `Check: ${smokeUrl} answers /contests/health, /openapi.json and / (${seconds(step)})`,
    )
  }

  const secretsNow = new Set([...existingSecrets, ...setNames])
  const off = Object.entries(CHANNEL_NEEDS)
    .filter(([, needs]) => needs.some((n) => !secretsNow.has(n)))
    .map(([channel, needs]) => `${channel} (${needs.filter((n) => !secretsNow.has(n)).join(', ')})`)
  if (settings.secrets.DISCORD_ENABLED === 'false') off.push('discord (DISCORD_ENABLED=false)')
  console.log('')
  // wrangler's default: workers.dev stays on unless routes take the Worker elsewhere.
  const onWorkersDev = toml.workers_dev ?? !(toml.routes?.length || toml.route)
  const also = onWorkersDev && appUrl !== workersDevUrl ? ` (and ${workersDevUrl})` : ''
  console.log(`Live at ${appUrl}${also}`)
  console.log(
    off.length > 0 ? `Off for lack of credentials: ${off.join(', ')}` : 'Every channel is on.',
  )
  console.log(`Deployed in ${seconds(started)}.`)
}

/** A Bot API call whose failure stops the deploy with `context` and Telegram's reason. */
async function telegram(context, call) {
  try {
    return await call()
  } catch (error) {
    const reason = error.cause?.message ?? error.message
    throw new DeployError(`${context}. Telegram: ${reason}`)
  }
}

/** /contests/health, /openapi.json and / answer as the service does; retried for a minute, since
 * a new workers.dev address takes a few seconds to answer. */
async function smokeCheck(base) {
  const root = base.replace(/\/+$/, '')
  const checks = [
    ['/contests/health', async (res) => (await res.json()).status === 'ok'],
    ['/openapi.json', async (res) => typeof (await res.json()).openapi === 'string'],
    ['/', async (res) => (res.headers.get('content-type') ?? '').startsWith('text/html')],
  ]
  const deadline = Date.now() + 60_000
  for (const [path, good] of checks) {
    let last
    for (;;) {
      try {
        const res = await fetch(`${root}${path}`, { signal: AbortSignal.timeout(10_000) })
        if (res.ok && (await good(res))) break
        last = `answered ${res.status}`
      } catch (error) {
        last = error.cause?.message ?? error.message
      }
      if (Date.now() > deadline) {
        throw new DeployError(
          `The deployed service did not answer ${root}${path} as expected (${last}).`,
        )
      }
      await new Promise((r) => setTimeout(r, 2_000))
    }
  }
}

try {
  await main()
} catch (error) {
  if (!(error instanceof DeployError)) throw error
  console.error(`\nDeploy stopped: ${error.message}`)
  process.exitCode = error.exitCode
}

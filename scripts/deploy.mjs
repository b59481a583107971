// `npm run deploy [-- --env staging --replace-secret NAME]`: deploys the service to the
// Cloudflare account of CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID, creating what is missing,
// and changes nothing when run again. Steps, each stopping the deploy when it fails: credentials;
// the D1 database, KV namespace and queues (found by name, created when absent); the generated
// wrangler configuration with their ids; the secrets to set; D1 migrations; the upload (code and
// secrets as one version); the Telegram webhook and commands; a check of the live service.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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
  codeDefaultNames,
  secretNames,
  varsFileName,
  writeDeployConfig,
} from './lib/deploy-config.mjs'
import { channelsOff, checkCredentials, checkService } from './lib/deploy-check.mjs'
import { ensureResources, secretNamesOf } from './lib/deploy-resources.mjs'
import { planSecrets } from './lib/deploy-secrets.mjs'
import { DeployError, wranglerRunner } from './lib/deploy-wrangler.mjs'
import { ALLOWED_UPDATES, BOT_COMMANDS, telegramBot, webhookUrl } from './lib/telegram-api.mjs'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const started = Date.now()
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`

const USAGE = `Usage: npm run deploy [-- [--env <name>] [--replace-secret <NAME>]...]

  --env <name>             a separate environment: the Worker contest-alert-service-<name>,
                           with its own database, namespace, queues and secrets
  --replace-secret <NAME>  set NAME even though the Worker has it: a generated secret is
                           generated again, a provided one takes the given value

Reads CLOUDFLARE_API_TOKEN, CLOUDFLARE_ACCOUNT_ID, provider keys and settings from the
environment or from .deploy.vars (.deploy.<env>.vars), which git ignores. SMOKE_URL sets the
address checked after the upload; SMOKE_URL=off skips the check.`

function readOptions() {
  let values
  try {
    ;({ values } = parseArgs({
      options: {
        env: { type: 'string' },
        'replace-secret': { type: 'string', multiple: true },
        help: { type: 'boolean' },
      },
    }))
  } catch (error) {
    throw new DeployError(`${error.message}\n\n${USAGE}`, 2)
  }
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
  // wrangler.toml's [vars] and the settings whose defaults are in code: plain vars, never secrets.
  const vars = [...Object.keys(toml.vars ?? {}), ...codeDefaultNames(ROOT)]
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
  const subdomain = await checkCredentials({
    token: settings.deploy.CLOUDFLARE_API_TOKEN,
    account: settings.deploy.CLOUDFLARE_ACCOUNT_ID,
    baseUrl: settings.deploy.CLOUDFLARE_API_BASE_URL,
    where: settings.file ?? varsFileName(options.env),
  })
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
  const wrangler = wranglerRunner({ cwd: ROOT, env })

  // 1. Resources, found by name, created when missing; the secrets the Worker has, meanwhile.
  let step = Date.now()
  const [{ ids, created }, existingSecrets] = await Promise.all([
    ensureResources(wrangler, resources),
    secretNamesOf(wrangler, resources.worker),
  ])
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
  // A setting earlier deploys stored as a secret (DISCORD_ENABLED, the URL settings) stays one until
  // it is deleted: a var of the same name would clash with it, so the value given is not uploaded.
  for (const name of Object.keys(settings.vars).filter((n) => existingSecrets.includes(n))) {
    delete vars[name]
    console.warn(
      `  ${name} is a secret of the Worker from an earlier deploy, so the value given is not ` +
        `uploaded; \`npx wrangler secret delete ${name}\` once, then deploy again, makes it a var`,
    )
  }
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
        apiUrl: settings.vars.TELEGRAM_API_URL,
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
  for (const { binding } of resources.d1) {
    console.log(`D1 migrations (${binding}):`)
    const args = ['d1', 'migrations', 'apply', binding, '--remote', '--config', configPath]
    const migrations = await wrangler.run(args, true)
    // wrangler marks a migration that failed without an API error with a cross, exit code 0.
    if (migrations.code !== 0 || migrations.output.includes('\u274C')) {
      const failed = /Migration (\S+) failed/.exec(migrations.output)?.[1]
      throw new DeployError(
        `${failed ? `Migration ${failed}` : 'A D1 migration'} failed, so nothing was uploaded: ` +
          'the version deployed before keeps serving. Migrations listed above as applied stay ' +
          'applied. Fix the migration and run the deploy again.',
      )
    }
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
    const upload = await wrangler.run(deployArgs, true)
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
    await checkService(smokeUrl)
    console.log(
      `Check: ${smokeUrl} answers /contests/health, /openapi.json and / (${seconds(step)})`,
    )
  }

  const off = channelsOff([...existingSecrets, ...setNames], {
    ...settings.secrets,
    ...settings.vars,
  })
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

try {
  await main()
} catch (error) {
  if (!(error instanceof DeployError)) throw error
  console.error(`\nDeploy stopped: ${error.message}`)
  process.exitCode = error.exitCode
}

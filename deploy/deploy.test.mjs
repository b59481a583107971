// `npm run deploy` from a fresh clone, with the real wrangler, against the loopback Cloudflare API
// stand-in: the first run creates and sets everything, the second changes nothing, a failing
// migration stops the upload, and --env staging is a separate set of resources in the account.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { parse as parseToml } from 'smol-toml'
import { startCloudflareStandIn } from '../scripts/lib/cloudflare-stand-in.mjs'
import { cleanEnv, freshClone, runDeploy, startServiceStandIn } from './harness.mjs'

const WORKER = 'contest-alert-service'
const BOT_TOKEN = '123456789:deploy-test-bot-token'
const RESEND_KEY = 're_deploy_test_0123456789abcdef'
const QUEUES = ['notifications', 'notifications-dlq', 'results', 'sync', 'webhooks', 'webhooks-dlq']

describe('npm run deploy against the Cloudflare API stand-in', { concurrency: false }, () => {
  let clone
  let cf
  let service
  let env
  let toml
  const runs = {}

  before(async () => {
    clone = freshClone()
    toml = parseToml(readFileSync(join(clone.root, 'wrangler.toml'), 'utf8'))
    cf = await startCloudflareStandIn({ telegramToken: BOT_TOKEN })
    service = await startServiceStandIn()
    env = cleanEnv(clone.dir, {
      CLOUDFLARE_API_BASE_URL: cf.apiBaseUrl,
      CLOUDFLARE_API_TOKEN: cf.token,
      CLOUDFLARE_ACCOUNT_ID: cf.accountId,
    })
    // Provider keys and a setting from the git-ignored file; the Bot API's address from the
    // environment, which the deploy also hands the Worker.
    writeFileSync(
      join(clone.root, '.deploy.vars'),
      [
        '# provider keys for npm run deploy',
        `TELEGRAM_BOT_TOKEN=${BOT_TOKEN}`,
        `RESEND_API_KEY="${RESEND_KEY}"`,
        'FROM_EMAIL=Contest Alerts <alerts@example.test>',
        '',
      ].join('\n'),
    )
  })

  after(async () => {
    await cf?.close()
    await service?.close()
    clone?.remove()
  })

  const script = (name = WORKER) => cf.state.scripts[name]
  const callsSince = (index) => cf.calls.slice(index)
  const secretValues = () =>
    Object.values(cf.state.scripts).flatMap((s) => Object.values(s.secrets))

  test('stops before any call when the credentials are missing, naming each', async () => {
    const { CLOUDFLARE_API_TOKEN: _t, CLOUDFLARE_ACCOUNT_ID: _a, ...without } = env
    const result = await runDeploy(clone.root, without)
    assert.equal(result.code, 2, result.output)
    assert.match(result.output, /CLOUDFLARE_API_TOKEN/)
    assert.match(result.output, /CLOUDFLARE_ACCOUNT_ID/)
    assert.match(result.output, /nothing was changed/)
    assert.equal(cf.calls.length, 0)

    const refused = await runDeploy(clone.root, { ...env, CLOUDFLARE_API_TOKEN: 'not-the-token' })
    assert.equal(refused.code, 2, refused.output)
    assert.match(refused.output, /refused the credentials.*Authentication error \[code: 10000\]/)
    assert.ok(cf.calls.every((c) => c.method === 'GET' && c.status === 403))
  })

  test('a fresh clone deploys: resources, migrations before the upload, bindings, crons, secrets, Telegram, the check', async (t) => {
    const start = cf.calls.length
    const result = await runDeploy(clone.root, {
      ...env,
      TELEGRAM_API_URL: cf.url,
      SMOKE_URL: service.url,
    })
    runs.first = result
    t.diagnostic(`first deploy: ${result.seconds.toFixed(1)} s`)
    assert.equal(result.code, 0, result.output)
    const url = `https://${WORKER}.${cf.state.subdomain}.workers.dev`
    assert.match(result.output, new RegExp(`Live at ${url}`))

    // Created: one database, one namespace, every queue and dead-letter queue, named per Worker.
    const created = callsSince(start).filter((c) => c.created)
    assert.deepEqual(
      created.map((c) => Object.values(c.created)[0]).sort(),
      [`${WORKER}-db`, `${WORKER}-kv`, ...QUEUES.map((q) => `${WORKER}-${q}`)].sort(),
    )

    // Every migration file, in order, each recorded in d1_migrations, all before the upload.
    const files = readdirSync(join(clone.root, 'migrations'))
      .filter((f) => f.endsWith('.sql'))
      .sort()
    const db = cf.state.d1.find((d) => d.name === `${WORKER}-db`)
    assert.deepEqual(
      db.migrations.map((m) => m.name),
      files,
    )
    const applied = callsSince(start).filter((c) => c.migration)
    assert.deepEqual(
      applied.map((c) => c.migration),
      files,
    )
    const uploads = callsSince(start).filter((c) => c.uploaded)
    assert.equal(uploads.length, 1)
    assert.ok(cf.calls.indexOf(applied.at(-1)) < cf.calls.indexOf(uploads[0]))

    // The bindings of wrangler.toml, on the account's own ids; the crons; the queue consumers.
    const live = script()
    const binding = (name) => live.bindings.find((b) => b.name === name)
    assert.equal(binding('DB').type, 'd1')
    assert.equal(binding('DB').id, db.uuid)
    const kv = cf.state.kv.find((n) => n.title === `${WORKER}-kv`)
    assert.equal(binding('KV').namespace_id, kv.id)
    assert.equal(binding('NOTIFICATIONS_QUEUE').queue_name, `${WORKER}-notifications`)
    assert.equal(binding('WEBHOOKS_QUEUE').queue_name, `${WORKER}-webhooks`)
    assert.equal(binding('RATE_LIMITER').class_name, 'RateLimiter')
    assert.equal(live.migration_tag, 'v1')
    assert.equal(binding('APP_URL').text, url)
    assert.equal(binding('FROM_EMAIL').text, 'Contest Alerts <alerts@example.test>')
    for (const [name, value] of Object.entries(toml.vars)) {
      if (name !== 'APP_URL' && name !== 'FROM_EMAIL') assert.equal(binding(name).text, value)
    }
    assert.equal(live.compatibility_date, toml.compatibility_date)
    assert.deepEqual(
      live.schedules.map((s) => s.cron),
      toml.triggers.crons,
    )
    for (const consumer of toml.queues.consumers) {
      const queue = cf.state.queues.find((q) => q.queue_name === `${WORKER}-${consumer.queue}`)
      assert.equal(queue.consumers.length, 1, consumer.queue)
      const [c] = queue.consumers
      assert.equal(c.script, WORKER)
      assert.equal(
        c.dead_letter_queue,
        consumer.dead_letter_queue ? `${WORKER}-${consumer.dead_letter_queue}` : '',
      )
      assert.equal(c.settings.batch_size, consumer.max_batch_size)
      assert.equal(c.settings.max_retries, consumer.max_retries)
    }

    // The Bot API address has its default in code: a plain var, as DISCORD_ENABLED would be.
    assert.equal(binding('TELEGRAM_API_URL').type, 'plain_text')
    assert.equal(binding('TELEGRAM_API_URL').text, cf.url)

    // Secrets: generated ones and the file's keys; uploaded with the code.
    const secrets = live.secrets
    assert.deepEqual(Object.keys(secrets).sort(), [
      'JWT_SECRET',
      'RESEND_API_KEY',
      'TELEGRAM_BOT_TOKEN',
      'TELEGRAM_WEBHOOK_SECRET',
      'VAPID_PRIVATE_KEY',
      'VAPID_PUBLIC_KEY',
    ])
    assert.ok(secrets.JWT_SECRET.length >= 32)
    assert.equal(Buffer.from(secrets.VAPID_PUBLIC_KEY, 'base64url').length, 65)
    assert.equal(Buffer.from(secrets.VAPID_PRIVATE_KEY, 'base64url').length, 32)
    assert.equal(secrets.RESEND_API_KEY, RESEND_KEY)
    assert.equal(secrets.TELEGRAM_BOT_TOKEN, BOT_TOKEN)
    assert.deepEqual(uploads[0].secretsSet.sort(), Object.keys(secrets).sort())

    // Telegram: the webhook with the Worker's secret, after the upload; the bot's commands.
    assert.equal(cf.telegram.webhook.url, `${url}/telegram/webhook`)
    assert.equal(cf.telegram.webhook.secretToken, secrets.TELEGRAM_WEBHOOK_SECRET)
    assert.deepEqual(cf.telegram.webhook.allowedUpdates, [
      'message',
      'channel_post',
      'callback_query',
    ])
    assert.deepEqual(
      cf.telegram.commands.map((c) => c.command),
      [
        'upcoming',
        'next',
        'subscribe',
        'settings',
        'unsubscribe',
        'claim',
        'rankupdates',
        'handle',
        'start',
        'stop',
        'help',
      ],
    )
    const setWebhook = callsSince(start).find((c) => c.bot === 'setWebhook')
    assert.ok(cf.calls.indexOf(setWebhook) > cf.calls.indexOf(uploads[0]))

    // The check reached the three routes; the channels without credentials are named.
    assert.deepEqual(service.paths, ['/contests/health', '/openapi.json', '/'])
    assert.match(result.output, /Off for lack of credentials: whatsapp \(.*Google sign-in/)
    assert.doesNotMatch(result.output, /Off for lack.*(email|telegram|push) \(/)

    // No secret is printed; the ids live in the git-ignored generated config, nothing tracked moved.
    for (const value of secretValues())
      assert.ok(!result.output.includes(value), 'a secret printed')
    const generated = readFileSync(
      join(clone.root, '.wrangler', 'deploy', 'wrangler.production.jsonc'),
      'utf8',
    )
    assert.ok(generated.includes(db.uuid) && generated.includes(kv.id))
    const status = execFileSync('git', ['status', '--porcelain'], { cwd: clone.root })
    assert.equal(status.toString(), '')
  })

  test('a second run creates nothing, sets nothing and uploads the same Worker', async (t) => {
    assert.ok(runs.first, 'needs the first deploy')
    const start = cf.calls.length
    const before = structuredClone({
      d1: cf.state.d1,
      kv: cf.state.kv,
      queues: cf.state.queues.map((q) => ({
        name: q.queue_name,
        consumers: q.consumers.map(({ created_on: _c, ...c }) => c),
      })),
      secrets: script().secrets,
      bindings: script().bindings,
      schedules: script().schedules.map((s) => s.cron),
      telegram: cf.telegram,
    })
    const firstVersion = script().versions.at(-1)
    const result = await runDeploy(clone.root, {
      ...env,
      TELEGRAM_API_URL: cf.url,
      SMOKE_URL: 'off',
    })
    runs.second = result
    t.diagnostic(`second deploy: ${result.seconds.toFixed(1)} s`)
    assert.equal(result.code, 0, result.output)
    assert.match(result.output, /created: nothing/)
    assert.match(result.output, /Secrets: none to set/)
    assert.match(result.output, /Check: skipped/)

    const calls = callsSince(start)
    assert.deepEqual(
      calls.filter((c) => c.created || c.secretsSet || c.migration),
      [],
    )
    assert.deepEqual(
      calls.filter((c) => c.bot && c.bot.startsWith('set')),
      [],
    )
    // The same code and bindings, uploaded again as a new version and deployed.
    const uploads = calls.filter((c) => c.uploaded)
    assert.equal(uploads.length, 1)
    const version = script().versions.at(-1)
    assert.notEqual(version.id, firstVersion.id)
    assert.equal(version.etag, firstVersion.etag)
    assert.deepEqual(version.modules, firstVersion.modules)
    assert.equal(script().deployed, version.id)
    assert.deepEqual(
      {
        d1: cf.state.d1,
        kv: cf.state.kv,
        queues: cf.state.queues.map((q) => ({
          name: q.queue_name,
          consumers: q.consumers.map(({ created_on: _c, ...c }) => c),
        })),
        secrets: script().secrets,
        bindings: script().bindings,
        schedules: script().schedules.map((s) => s.cron),
        telegram: cf.telegram,
      },
      before,
    )
  })

  test('a failing migration stops the deploy before the upload; the deployed version keeps serving', async () => {
    assert.ok(runs.second, 'needs the earlier deploys')
    const good = '0900_deploy_test_good.sql'
    const broken = '0901_deploy_test_broken.sql'
    writeFileSync(join(clone.root, 'migrations', good), 'CREATE TABLE deploy_test (id TEXT);\n')
    writeFileSync(join(clone.root, 'migrations', broken), 'BROKEN STATEMENT;\n')
    cf.failMigration(broken)
    const deployed = script().deployed
    const versions = script().versions.length
    const start = cf.calls.length
    try {
      const result = await runDeploy(clone.root, {
        ...env,
        TELEGRAM_API_URL: cf.url,
        SMOKE_URL: 'off',
      })
      assert.equal(result.code, 1, result.output)
      assert.match(result.output, new RegExp(`Migration ${broken} failed, so nothing was uploaded`))
      const calls = callsSince(start)
      assert.deepEqual(
        calls.filter((c) => c.migration).map((c) => c.migration),
        [good],
      )
      assert.equal(calls.filter((c) => c.failed).length, 1)
      assert.deepEqual(
        calls.filter((c) => c.path.includes('/workers/scripts/') && c.method !== 'GET'),
        [],
      )
      assert.equal(script().deployed, deployed)
      assert.equal(script().versions.length, versions)
      const db = cf.state.d1.find((d) => d.name === `${WORKER}-db`)
      assert.equal(db.migrations.at(-1).name, good)
    } finally {
      rmSync(join(clone.root, 'migrations', good))
      rmSync(join(clone.root, 'migrations', broken))
    }
  })

  test('a new APP_URL moves the Telegram webhook, setting its secret with it and nothing else', async () => {
    assert.ok(runs.second, 'needs the earlier deploys')
    const before = structuredClone(script().secrets)
    const start = cf.calls.length
    const appUrl = 'https://alerts.example.test'
    const result = await runDeploy(clone.root, {
      ...env,
      APP_URL: appUrl,
      TELEGRAM_API_URL: cf.url,
      SMOKE_URL: 'off',
    })
    assert.equal(result.code, 0, result.output)
    const calls = callsSince(start)
    assert.deepEqual(
      calls.filter((c) => c.created || c.migration),
      [],
    )
    assert.deepEqual(
      calls.filter((c) => c.secretsSet).map((c) => c.secretsSet),
      [['TELEGRAM_WEBHOOK_SECRET']],
    )
    const secrets = script().secrets
    assert.notEqual(secrets.TELEGRAM_WEBHOOK_SECRET, before.TELEGRAM_WEBHOOK_SECRET)
    assert.deepEqual(
      { ...secrets, TELEGRAM_WEBHOOK_SECRET: undefined },
      { ...before, TELEGRAM_WEBHOOK_SECRET: undefined },
    )
    assert.equal(cf.telegram.webhook.url, `${appUrl}/telegram/webhook`)
    assert.equal(cf.telegram.webhook.secretToken, secrets.TELEGRAM_WEBHOOK_SECRET)
    assert.equal(script().bindings.find((b) => b.name === 'APP_URL').text, appUrl)
    assert.match(result.output, new RegExp(`Live at ${appUrl} \\(and https://`))
    for (const value of secretValues())
      assert.ok(!result.output.includes(value), 'a secret printed')
  })

  test('--env staging is a separate Worker with its own resources and secrets', async (t) => {
    assert.ok(runs.first, 'needs the production deploy')
    const production = structuredClone(script())
    const start = cf.calls.length
    const result = await runDeploy(clone.root, { ...env, SMOKE_URL: 'off' }, ['--env', 'staging'])
    t.diagnostic(`staging deploy: ${result.seconds.toFixed(1)} s`)
    assert.equal(result.code, 0, result.output)
    const name = `${WORKER}-staging`
    const created = callsSince(start)
      .filter((c) => c.created)
      .map((c) => Object.values(c.created)[0])
    assert.deepEqual(
      created.sort(),
      [`${name}-db`, `${name}-kv`, ...QUEUES.map((q) => `${name}-${q}`)].sort(),
    )
    const staging = script(name)
    const db = cf.state.d1.find((d) => d.name === `${name}-db`)
    assert.equal(staging.bindings.find((b) => b.name === 'DB').id, db.uuid)
    const files = readdirSync(join(clone.root, 'migrations')).filter((f) => f.endsWith('.sql'))
    assert.deepEqual(
      db.migrations.map((m) => m.name),
      files.sort(),
    )
    // No .deploy.staging.vars: only the generated secrets, none shared with production.
    assert.deepEqual(Object.keys(staging.secrets).sort(), [
      'JWT_SECRET',
      'VAPID_PRIVATE_KEY',
      'VAPID_PUBLIC_KEY',
    ])
    assert.notEqual(staging.secrets.JWT_SECRET, production.secrets.JWT_SECRET)
    assert.match(result.output, /Off for lack of credentials: email \(RESEND_API_KEY\)/)
    // Production is as it was.
    assert.equal(script().deployed, production.deployed)
    assert.deepEqual(script().secrets, production.secrets)
    for (const value of secretValues())
      assert.ok(!result.output.includes(value), 'a secret printed')
  })
})

// The deploy's decisions without an account: which secrets it sets and never overwrites, the keys
// it generates, the names and generated configuration of an environment, and reading wrangler's
// output and the vars file.
import assert from 'node:assert/strict'
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, test } from 'node:test'
import {
  codeDefaultNames,
  deployConfig,
  parseVars,
  readWranglerToml,
  resourcesOf,
  secretNames,
  varsFileName,
} from '../scripts/lib/deploy-config.mjs'
import { planSecrets, vapidKeyPair } from '../scripts/lib/deploy-secrets.mjs'
import { channelsOff, checkCredentials, checkService } from '../scripts/lib/deploy-check.mjs'
import { queueNamesIn, workerMissing } from '../scripts/lib/deploy-wrangler.mjs'
import { startServiceStandIn } from './harness.mjs'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const GENERATED = ['JWT_SECRET', 'VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY']

describe('secrets', () => {
  test('a Worker without secrets gets JWT_SECRET and a VAPID pair, and the provided keys', () => {
    const plan = planSecrets({ existing: [], provided: { RESEND_API_KEY: 're_1' } })
    assert.deepEqual(Object.keys(plan.values).sort(), [...GENERATED, 'RESEND_API_KEY'].sort())
    assert.deepEqual(plan.generated.sort(), [...GENERATED].sort())
    assert.equal(plan.values.RESEND_API_KEY, 're_1')
    assert.ok(plan.values.JWT_SECRET.length >= 32)
    assert.deepEqual(plan.problems, [])
  })

  test('a secret already set is never overwritten unless asked', () => {
    const existing = [...GENERATED, 'RESEND_API_KEY']
    const plan = planSecrets({ existing, provided: { RESEND_API_KEY: 're_2' } })
    assert.deepEqual(plan.values, {})
    assert.deepEqual(plan.kept, ['RESEND_API_KEY'])

    const asked = planSecrets({
      existing,
      provided: { RESEND_API_KEY: 're_2' },
      replace: ['RESEND_API_KEY', 'JWT_SECRET'],
    })
    assert.deepEqual(Object.keys(asked.values).sort(), ['JWT_SECRET', 'RESEND_API_KEY'])
    assert.equal(asked.values.RESEND_API_KEY, 're_2')
  })

  test('either half of the VAPID pair, missing or replaced, makes a new pair', () => {
    const missing = planSecrets({ existing: ['JWT_SECRET', 'VAPID_PUBLIC_KEY'], provided: {} })
    assert.deepEqual(Object.keys(missing.values).sort(), ['VAPID_PRIVATE_KEY', 'VAPID_PUBLIC_KEY'])
    const replaced = planSecrets({
      existing: GENERATED,
      provided: {},
      replace: ['VAPID_PUBLIC_KEY'],
    })
    assert.deepEqual(Object.keys(replaced.values).sort(), ['VAPID_PRIVATE_KEY', 'VAPID_PUBLIC_KEY'])
  })

  test('the Telegram webhook secret is generated only with a bot', () => {
    const without = planSecrets({ existing: GENERATED, provided: {} })
    assert.deepEqual(without.values, {})
    const bot = planSecrets({
      existing: GENERATED,
      provided: { TELEGRAM_BOT_TOKEN: '1:a' },
      wantTelegramSecret: true,
    })
    assert.deepEqual(Object.keys(bot.values).sort(), [
      'TELEGRAM_BOT_TOKEN',
      'TELEGRAM_WEBHOOK_SECRET',
    ])
    assert.match(bot.values.TELEGRAM_WEBHOOK_SECRET, /^[A-Za-z0-9_-]{32,256}$/)
  })

  test('bad values are refused before anything changes', () => {
    const plan = planSecrets({
      existing: [],
      provided: {
        JWT_SECRET: 'replace-me-npm-start-writes-a-random-secret',
        VAPID_PUBLIC_KEY: 'abc',
        TELEGRAM_WEBHOOK_SECRET: 'has spaces',
      },
      replace: ['WHATSAPP_TOKEN'],
    })
    assert.equal(plan.problems.length, 5, plan.problems.join('\n'))
  })

  test('a generated VAPID pair is a P-256 key pair in the form the Worker reads', () => {
    const { VAPID_PUBLIC_KEY: pub, VAPID_PRIVATE_KEY: priv } = vapidKeyPair()
    const point = Buffer.from(pub, 'base64url')
    assert.equal(point.length, 65)
    assert.equal(point[0], 4)
    assert.equal(Buffer.from(priv, 'base64url').length, 32)
    const jwk = {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    }
    const signature = sign(
      'sha256',
      Buffer.from('vapid'),
      createPrivateKey({ key: { ...jwk, d: priv }, format: 'jwk' }),
    )
    assert.ok(
      verify(
        'sha256',
        Buffer.from('vapid'),
        createPublicKey({ key: jwk, format: 'jwk' }),
        signature,
      ),
    )
  })

  test("the secret names are src/env.ts's Secrets", () => {
    const names = secretNames(ROOT)
    for (const name of [
      'JWT_SECRET',
      'RESEND_API_KEY',
      'VAPID_PRIVATE_KEY',
      'TELEGRAM_BOT_TOKEN',
    ]) {
      assert.ok(names.includes(name), name)
    }
    const toml = readWranglerToml(ROOT)
    assert.deepEqual(
      names.filter((n) => n in toml.vars),
      [],
    )
  })

  test('switches and addresses with defaults in code are vars, not secrets', () => {
    const secrets = secretNames(ROOT)
    const vars = codeDefaultNames(ROOT)
    for (const name of [
      'DISCORD_ENABLED',
      'SLACK_ENABLED',
      'TELEGRAM_API_URL',
      'GOOGLE_JWKS_URL',
    ]) {
      assert.ok(vars.includes(name), name)
      assert.ok(!secrets.includes(name), name)
    }
    const toml = readWranglerToml(ROOT)
    assert.deepEqual(
      vars.filter((n) => secrets.includes(n) || n in toml.vars),
      [],
    )
  })
})

describe('environments', () => {
  const toml = readWranglerToml(ROOT)

  test('every resource is named after the Worker of its environment', () => {
    for (const [env, worker] of [
      ['production', 'contest-alert-service'],
      ['staging', 'contest-alert-service-staging'],
    ]) {
      const r = resourcesOf(toml, env)
      assert.equal(r.worker, worker)
      assert.deepEqual(
        r.d1.map((d) => d.name),
        [`${worker}-db`],
      )
      assert.deepEqual(
        r.kv.map((k) => k.name),
        [`${worker}-kv`],
      )
      assert.deepEqual(r.queues.map((q) => q.name).sort(), [
        `${worker}-notifications`,
        `${worker}-notifications-dlq`,
        `${worker}-results`,
        `${worker}-sync`,
        `${worker}-webhooks`,
        `${worker}-webhooks-dlq`,
      ])
      for (const q of r.queues) assert.ok(q.name.length <= 63, q.name)
    }
    assert.equal(varsFileName('production'), '.deploy.vars')
    assert.equal(varsFileName('staging'), '.deploy.staging.vars')
  })

  test('the generated configuration is wrangler.toml with the ids, names and vars of the account', () => {
    const worker = 'contest-alert-service-staging'
    const ids = { [`${worker}-db`]: 'd1-id', [`${worker}-kv`]: 'kv-id' }
    const config = deployConfig({
      toml,
      env: 'staging',
      ids,
      vars: { APP_URL: 'https://x.example' },
      root: '/repo',
      path: '/repo/.wrangler/deploy/wrangler.staging.jsonc',
    })
    assert.equal(config.name, worker)
    assert.equal(config.main, '../../src/index.ts')
    assert.deepEqual(config.d1_databases, [
      {
        binding: 'DB',
        database_name: `${worker}-db`,
        database_id: 'd1-id',
        migrations_dir: '../../migrations',
      },
    ])
    assert.deepEqual(config.kv_namespaces, [{ binding: 'KV', id: 'kv-id' }])
    assert.deepEqual(
      config.queues.consumers.map((c) => [c.queue, c.dead_letter_queue, c.max_retries]),
      toml.queues.consumers.map((c) => [
        `${worker}-${c.queue}`,
        c.dead_letter_queue && `${worker}-${c.dead_letter_queue}`,
        c.max_retries,
      ]),
    )
    assert.equal(config.vars.APP_URL, 'https://x.example')
    assert.equal(config.vars.JWT_ISSUER, toml.vars.JWT_ISSUER)
    assert.deepEqual(config.triggers, toml.triggers)
    assert.deepEqual(config.durable_objects, toml.durable_objects)
    assert.deepEqual(config.migrations, toml.migrations)
    assert.throws(() =>
      deployConfig({ toml, env: 'staging', ids: {}, vars: {}, root: '/r', path: '/r/x.jsonc' }),
    )
  })
})

describe('reading', () => {
  test('npm run deploy runs scripts/deploy.mjs after the install check, as the suite runs it', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
    assert.equal(scripts.deploy, 'node scripts/deploy.mjs')
    assert.match(scripts.predeploy, /ensure-deps/)
  })

  test('the vars file: comments, quotes, export', () => {
    assert.deepEqual(
      parseVars('# keys\nexport A=1\nB="two words"\nC=\'x#y\'\nD=plain # note\n\nE=\n'),
      { A: '1', B: 'two words', C: 'x#y', D: 'plain', E: '' },
    )
    assert.throws(() => parseVars('not a line'), /line 1/)
  })

  test("wrangler's queue table and its missing-Worker error", () => {
    const table = [
      '┌──────┬───────────────────┬───────────┐',
      '│ id   │ name              │ consumers │',
      '├──────┼───────────────────┼───────────┤',
      '│ 1    │ a-notifications   │ 1         │',
      '├──────┼───────────────────┼───────────┤',
      '│ 2    │ a-notifications-dlq │ 0       │',
      '└──────┴───────────────────┴───────────┘',
    ].join('\n')
    assert.deepEqual(queueNamesIn(table), ['a-notifications', 'a-notifications-dlq'])
    assert.deepEqual(queueNamesIn(''), [])
    assert.ok(workerMissing('✘ [ERROR] Worker "contest-alert-service" not found.'))
    assert.ok(!workerMissing('Authentication error [code: 10000]'))
  })
})

describe('checks', () => {
  test('missing credentials are named, with nothing asked of the network', async () => {
    await assert.rejects(checkCredentials({ where: '.deploy.vars' }), (error) => {
      assert.equal(error.exitCode, 2)
      assert.match(error.message, /CLOUDFLARE_API_TOKEN \(an API token/)
      assert.match(error.message, /CLOUDFLARE_ACCOUNT_ID/)
      return true
    })
  })

  test('the service check passes on the three routes and names the one that fails', async () => {
    const service = await startServiceStandIn()
    try {
      await checkService(service.url, 0)
      assert.deepEqual(service.paths, ['/contests/health', '/openapi.json', '/'])
      await assert.rejects(
        checkService(`${service.url}/nowhere`, 0),
        /nowhere\/contests\/health gave status 404/,
      )
    } finally {
      await service.close()
    }
  })

  test('the channels off are those lacking a setting', () => {
    assert.deepEqual(
      channelsOff(['RESEND_API_KEY', 'VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'WHATSAPP_TOKEN'], {
        DISCORD_ENABLED: 'false',
      }),
      [
        'whatsapp (WHATSAPP_PHONE_NUMBER_ID)',
        'telegram (TELEGRAM_BOT_TOKEN)',
        'Google sign-in (GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET)',
        'discord (DISCORD_ENABLED=false)',
      ],
    )
  })
})

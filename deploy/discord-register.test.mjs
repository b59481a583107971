// `npm run discord:register` against the provider stand-in's Discord API: the commands of
// src/channels/discord/commands.ts replace the application's, globally or on one guild; missing
// settings and a refused token stop it with the reason.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { startStandIn } from '../contract/stand-in.mjs'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const APPLICATION_ID = '1300000000000000001'
const TOKEN = 'stand-in-discord-bot-token'

describe('npm run discord:register', () => {
  let standIn
  before(async () => {
    standIn = await startStandIn()
  })
  after(() => standIn?.close())

  // Not spawnSync: the stand-in answers from this very process.
  const register = (env, args = []) =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, ['scripts/discord-register.mjs', ...args], {
        cwd: ROOT,
        env: { PATH: process.env.PATH, DISCORD_API_URL: `${standIn.url}/discord/api/v10`, ...env },
      })
      let stdout = ''
      let stderr = ''
      child.stdout.setEncoding('utf8').on('data', (t) => (stdout += t))
      child.stderr.setEncoding('utf8').on('data', (t) => (stderr += t))
      child.on('close', (status) => resolve({ status, stdout, stderr }))
    })
  const commandsAt = async (path) => {
    const res = await fetch(
      `${standIn.url}/discord/api/v10/applications/${APPLICATION_ID}${path}`,
      {
        headers: { Authorization: `Bot ${TOKEN}` },
      },
    )
    return res.json()
  }

  test('replaces the global commands, then one guild’s, with /contests', async () => {
    const env = { DISCORD_APPLICATION_ID: APPLICATION_ID, DISCORD_BOT_TOKEN: TOKEN }
    const global = await register(env)
    assert.equal(global.status, 0, global.stderr)
    assert.match(global.stdout, /Registered globally: \/contests/)
    const [contests] = await commandsAt('/commands')
    assert.equal(contests.name, 'contests')
    assert.deepEqual(
      contests.options.map((o) => o.name),
      [
        'upcoming',
        'subscribe',
        'unsubscribe',
        'settings',
        'claim',
        'rankupdates',
        'handle',
        'roles',
      ],
    )
    // The events switch of a subscription (a boolean) and the roles group with its subcommands.
    const subscribe = contests.options.find((o) => o.name === 'subscribe')
    assert.equal(subscribe.options.find((o) => o.name === 'events')?.type, 5)
    const roles = contests.options.find((o) => o.name === 'roles')
    assert.equal(roles.type, 2)
    assert.deepEqual(
      roles.options.map((o) => o.name),
      ['list', 'set', 'unset'],
    )
    const puts = (await standIn.requests('/discord/api/v10/')).filter((r) => r.method === 'PUT')
    assert.equal(puts.length, 1)
    assert.equal(puts[0].headers.authorization, `Bot ${TOKEN}`)

    const guild = await register(env, ['--guild', '123456789012345678'])
    assert.equal(guild.status, 0, guild.stderr)
    assert.match(guild.stdout, /Registered on server 123456789012345678: \/contests/)
    assert.equal((await commandsAt('/guilds/123456789012345678/commands')).length, 1)
  })

  test('stops without the settings, with a bad guild id, and on a refused token', async () => {
    const none = await register({})
    assert.equal(none.status, 2)
    assert.match(none.stderr, /Set DISCORD_APPLICATION_ID, DISCORD_BOT_TOKEN/)
    const badGuild = await register(
      { DISCORD_APPLICATION_ID: APPLICATION_ID, DISCORD_BOT_TOKEN: TOKEN },
      ['--guild', 'my-server'],
    )
    assert.equal(badGuild.status, 2)
    const refused = await register({
      DISCORD_APPLICATION_ID: APPLICATION_ID,
      DISCORD_BOT_TOKEN: 'nope',
    })
    assert.equal(refused.status, 1)
    assert.match(refused.stderr, /Discord refused PUT \/commands \(401\)/)
  })
})

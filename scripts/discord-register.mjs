// `npm run discord:register [-- --guild <id>]`: registers the application's slash commands
// (src/channels/discord/commands.ts) with Discord, from DISCORD_APPLICATION_ID and
// DISCORD_BOT_TOKEN. Global commands reach every server the application is in; `--guild` puts
// them on one server only, where a change shows at once (for trying them out). Every option is
// taken from commands.ts as it is, `/contests subscribe … events:true` and the `/contests roles
// list|set|unset` group among them, so registering again is all a new option needs.
import { parseArgs } from 'node:util'
import { discordApplication } from './lib/discord-api.mjs'
import { importTypeScript } from './lib/import-typescript.mjs'

const { values } = parseArgs({ options: { guild: { type: 'string' } } })
const { DISCORD_APPLICATION_ID, DISCORD_BOT_TOKEN, DISCORD_API_URL } = process.env

const missing = Object.entries({ DISCORD_APPLICATION_ID, DISCORD_BOT_TOKEN })
  .filter(([, value]) => !value)
  .map(([name]) => name)
if (missing.length > 0) {
  console.error(`Set ${missing.join(', ')} in the environment first.`)
  process.exit(2)
}
if (values.guild !== undefined && !/^\d{17,20}$/.test(values.guild)) {
  console.error('--guild takes a server id (17 to 20 digits: Developer Mode, Copy Server ID).')
  process.exit(2)
}

const { DISCORD_COMMANDS } = await importTypeScript('src/channels/discord/commands.ts')
const app = discordApplication({
  applicationId: DISCORD_APPLICATION_ID,
  botToken: DISCORD_BOT_TOKEN,
  apiUrl: DISCORD_API_URL,
})
try {
  const registered = await app.setCommands(DISCORD_COMMANDS, values.guild)
  const where = values.guild ? `on server ${values.guild}` : 'globally'
  console.log(`Registered ${where}: ${registered.map((c) => `/${c.name}`).join(', ')}`)
} catch (error) {
  console.error(error.message)
  process.exit(1)
}

// The Discord application over HTTP interactions (mounted at /discord): POST /interactions takes
// what Discord sends when someone uses a slash command (`/contests upcoming` here, the channel
// subscriptions in community-commands.ts, a member's handle in member-commands.ts, the roles'
// buttons in role-buttons.ts), signed with Ed25519 (a bad or missing signature is 401,
// as Discord's own check of the endpoint expects; a copy of an interaction already answered is
// 409, interaction-replay.ts), and GET / says whether the application is set up here and how a
// server adds it. Without DISCORD_APPLICATION_ID and a well-formed DISCORD_PUBLIC_KEY the
// interactions answer 404 and GET / says `enabled: false`.
import { createRoute, z } from '@hono/zod-openapi'
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../../../app-env.ts'
import { listUpcoming } from '../../../contests/queries.ts'
import { createDb } from '../../../db/client.ts'
import { renderNotFound } from '../../../http/errors.ts'
import { createRouter } from '../../../http/router.ts'
import { unauthorized } from '../../../lib/errors.ts'
import { errorResponse, json } from '../../../lib/openapi.ts'
import { isPlatform } from '../../../platforms/registry.ts'
import { CONTESTS_COMMAND, PLATFORM_OPTION } from '../commands.ts'
import { discordApplication } from '../application.ts'
import { firstSighting } from '../interaction-replay.ts'
import { checkInteractionSignature } from '../interaction-signature.ts'
import { communityCommand, privately, type CommandOption } from './community-commands.ts'
import { upcomingEmbed } from './contest-list.ts'
import { memberHandle } from './member-commands.ts'
import { pressRoleButton } from './role-buttons.ts'

// Interaction and response types (Discord's numbers).
const PING = 1
const APPLICATION_COMMAND = 2
const MESSAGE_COMPONENT = 3
const SUB_COMMAND_GROUP = 2
const PONG = 1
const CHANNEL_MESSAGE = 4
// How many contests /contests upcoming lists: enough for a week, short enough to read.
const UPCOMING_LIMIT = 10

const signed: MiddlewareHandler<AppEnv> = async (c, next) => {
  const app = discordApplication(c.env)
  if (!app) return renderNotFound(c)
  const check = await checkInteractionSignature(
    app.publicKey,
    c.req.header('X-Signature-Ed25519'),
    c.req.header('X-Signature-Timestamp'),
    await c.req.text(),
    Date.now(),
  )
  if (check !== 'ok') throw unauthorized('Invalid request signature')
  await next()
}

// Discord's payloads carry many fields and gain more; only those read here are checked.
const Option: z.ZodType<CommandOption> = z.lazy(() =>
  z.looseObject({
    name: z.string(),
    type: z.number().optional(),
    value: z.unknown().optional(),
    options: z.array(Option).optional(),
  }),
)
const ResolvedChannel = z.looseObject({
  name: z.string().optional(),
  permissions: z.string().optional(),
  guild_id: z.string().optional(),
})
const Interaction = z.looseObject({
  type: z.number(),
  id: z.string().optional(),
  token: z.string().optional(),
  application_id: z.string().optional(),
  guild_id: z.string().optional(),
  channel_id: z.string().optional(),
  member: z
    .looseObject({
      user: z.looseObject({ id: z.string() }).optional(),
      roles: z.array(z.string()).optional(),
    })
    .optional(),
  data: z
    .looseObject({
      // A command's name, or a component's custom_id.
      name: z.string().optional(),
      custom_id: z.string().optional(),
      options: z.array(Option).optional(),
      resolved: z
        .looseObject({ channels: z.record(z.string(), ResolvedChannel).optional() })
        .optional(),
    })
    .optional(),
})

const InteractionResponseSchema = z
  .object({ type: z.number(), data: z.record(z.string(), z.unknown()).optional() })
  .openapi('DiscordInteractionResponse')

const interactions = createRoute({
  method: 'post',
  path: '/interactions',
  tags: ['Discord'],
  summary: 'Discord interactions: PING and the /contests commands, signed by Discord (Ed25519)',
  description:
    'The body is Discord’s interaction object, checked against X-Signature-Ed25519 over ' +
    'X-Signature-Timestamp and the raw body with DISCORD_PUBLIC_KEY.',
  middleware: [signed] as const,
  responses: {
    200: json(InteractionResponseSchema, 'The interaction’s response'),
    400: errorResponse('Not an interaction'),
    401: errorResponse('Bad, missing or stale signature'),
    404: errorResponse('The Discord application is not set up here'),
    409: errorResponse('The interaction was answered already (a copy of a signed request)'),
  },
})

const DiscordStatusSchema = z
  .object({
    enabled: z.boolean(),
    applicationId: z.string().optional(),
    installUrl: z.string().optional(),
  })
  .openapi('DiscordStatus')

const status = createRoute({
  method: 'get',
  path: '/',
  tags: ['Discord'],
  summary: 'Whether the Discord application is set up here, and the link that adds it to a server',
  responses: { 200: json(DiscordStatusSchema, 'The application’s state') },
})

/** What the bot answers a command with. */
async function answer(c: Context<AppEnv>, interaction: z.infer<typeof Interaction>) {
  const { data } = interaction
  const top = data?.name === CONTESTS_COMMAND.name ? data.options?.[0] : undefined
  // `/contests roles list` comes as the group `roles` holding the subcommand `list`.
  const group = top?.type === SUB_COMMAND_GROUP ? top.options?.[0] : undefined
  const sub = group ? { ...group, name: `${top!.name} ${group.name}` } : top
  if (sub && sub.name !== 'upcoming' && interaction.token) {
    // A member's own handle (member-commands.ts); the rest manage the channel.
    const run = sub.name === 'handle' ? memberHandle : communityCommand
    return run(c, sub.name, {
      applicationId: interaction.application_id ?? discordApplication(c.env)!.id,
      token: interaction.token,
      guildId: interaction.guild_id,
      here: interaction.channel_id,
      userId: interaction.member?.user?.id,
      options: sub.options ?? [],
      channels: Object.fromEntries(
        Object.entries(data?.resolved?.channels ?? {}).map(([id, ch]) => [
          id,
          { name: ch.name, permissions: ch.permissions, guildId: ch.guild_id },
        ]),
      ),
    })
  }
  if (sub?.name !== 'upcoming') return privately('This command is not one the bot knows.')
  const chosen = sub.options?.find((o) => o.name === PLATFORM_OPTION)
  const platform = typeof chosen?.value === 'string' ? chosen.value : undefined
  if (platform !== undefined && !isPlatform(platform)) {
    return privately(`No platform is called ${platform}.`)
  }
  const rows = await listUpcoming(createDb(c.env.DB), platform, Date.now(), UPCOMING_LIMIT)
  return {
    type: CHANNEL_MESSAGE,
    data: { embeds: [upcomingEmbed(rows, platform)], allowed_mentions: { parse: [] } },
  }
}

export const discordInteractionRoutes = createRouter()
  .openapi(interactions, async (c) => {
    // The body the signature was checked over, parsed now.
    const body = await c.req.text()
    const parsed = Interaction.safeParse(
      await Promise.resolve()
        .then(() => JSON.parse(body))
        .catch(() => undefined),
    )
    if (!parsed.success) {
      return c.json({ statusCode: 400, message: 'Not an interaction', error: 'Bad Request' }, 400)
    }
    const { type, id } = parsed.data
    if (type === PING) return c.json({ type: PONG }, 200)
    // Everything else runs once per interaction id: a copy of a signed request is refused.
    if (!id || !/^\d{17,20}$/.test(id)) {
      return c.json({ statusCode: 400, message: 'Not an interaction', error: 'Bad Request' }, 400)
    }
    const timestamp = Number(c.req.header('X-Signature-Timestamp'))
    if (!(await firstSighting(createDb(c.env.DB), id, timestamp))) {
      const message = 'This interaction was already answered'
      return c.json({ statusCode: 409, message, error: 'Conflict' }, 409)
    }
    if (type === APPLICATION_COMMAND) return c.json(await answer(c, parsed.data), 200)
    if (type === MESSAGE_COMPONENT && parsed.data.token) {
      const i = parsed.data
      const pressed = await pressRoleButton(c, {
        applicationId: i.application_id ?? discordApplication(c.env)!.id,
        token: parsed.data.token,
        guildId: i.guild_id,
        channelId: i.channel_id,
        customId: i.data?.custom_id ?? '',
        userId: i.member?.user?.id,
        memberRoles: i.member?.roles ?? [],
      })
      return c.json(pressed, 200)
    }
    return c.json(privately('The bot does not handle this kind of interaction.'), 200)
  })
  .openapi(status, (c) => {
    const app = discordApplication(c.env)
    if (!app) return c.json({ enabled: false }, 200)
    return c.json({ enabled: true, applicationId: app.id, installUrl: app.installUrl }, 200)
  })

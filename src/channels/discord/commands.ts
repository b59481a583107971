// The application's slash commands as Discord registers them (`npm run discord:register`):
// `/contests upcoming [platform]`, and `/contests subscribe|unsubscribe|settings|claim` for a channel's
// announcements (members with Manage Channels only, checked when used), and `/contests roles
// list|set|unset` for the roles its announcements ping (anyone lists them); `/contests rankupdates
// on|off` for its rank posts (Manage Channels) and `/contests handle` for a member's own handle in them.
import { PLATFORM_MODULES } from '../../platforms/registry.ts'

// Discord's option and command types.
const SUB_COMMAND = 1
const SUB_COMMAND_GROUP = 2
const STRING = 3
const BOOLEAN = 5
const CHANNEL = 7
const ROLE = 8
const CHAT_INPUT = 1
// Text and announcement channels, where the bot posts.
const POSTABLE_CHANNELS = [0, 5]
// Discord takes at most 25 choices for an option.
export const MAX_CHOICES = 25

export const PLATFORM_OPTION = 'platform'

/** Every platform, as the choices of an option. */
export const PLATFORM_CHOICES = PLATFORM_MODULES.map((p) => ({ name: p.name, value: p.id }))

/** The judges whose results rank posts read: the choices of `/contests handle`. */
const RESULT_PLATFORM_CHOICES = PLATFORM_MODULES.filter((p) => p.results && p.source).map((p) => ({
  name: p.name,
  value: p.id,
}))

const channelOption = (description: string) => ({
  type: CHANNEL,
  name: 'channel',
  description,
  required: true,
  channel_types: POSTABLE_CHANNELS,
})

export const CONTESTS_COMMAND = {
  name: 'contests',
  type: CHAT_INPUT,
  description: 'Programming contests: what is coming up',
  options: [
    {
      type: SUB_COMMAND,
      name: 'upcoming',
      description: 'The next contests to start, of every platform or one',
      options: [
        {
          type: STRING,
          name: PLATFORM_OPTION,
          description: 'Only contests of this platform',
          required: false,
          choices: PLATFORM_CHOICES,
        },
      ],
    },
    {
      type: SUB_COMMAND,
      name: 'subscribe',
      description: 'Announce contests in a channel (Manage Channels)',
      options: [
        channelOption('Where the announcements go'),
        {
          type: STRING,
          name: 'platforms',
          description: 'Platforms, separated by spaces: codeforces atcoder',
          required: true,
        },
        {
          type: ROLE,
          name: 'role',
          description: 'The role each announcement mentions',
          required: false,
        },
        {
          type: STRING,
          name: 'lead',
          description: 'Minutes before the start, separated by spaces: 60 1440 (default 60)',
          required: false,
        },
        {
          type: BOOLEAN,
          name: 'events',
          description: 'Also add each contest to the server’s events (the bot needs Manage Events)',
          required: false,
        },
        {
          type: BOOLEAN,
          name: 'cleanup',
          description: 'Delete each announcement after its contest ends',
          required: false,
        },
      ],
    },
    {
      type: SUB_COMMAND,
      name: 'unsubscribe',
      description: 'No more announcements in a channel (Manage Channels)',
      options: [channelOption('The channel')],
    },
    {
      type: SUB_COMMAND,
      name: 'settings',
      description: 'What a channel is told',
      options: [channelOption('The channel')],
    },
    {
      type: SUB_COMMAND,
      name: 'claim',
      description: 'Manage a channel’s announcements from your account (Manage Channels)',
      options: [
        channelOption('The channel'),
        {
          type: STRING,
          name: 'code',
          description: 'The code of the Communities page of the web app',
          required: true,
        },
      ],
    },
    {
      type: SUB_COMMAND,
      name: 'rankupdates',
      description: 'Post members’ ranks and ratings after each contest (Manage Channels)',
      options: [
        channelOption('The channel'),
        {
          type: STRING,
          name: 'state',
          description: 'on or off',
          required: true,
          choices: [
            { name: 'on', value: 'on' },
            { name: 'off', value: 'off' },
          ],
        },
      ],
    },
    {
      type: SUB_COMMAND,
      name: 'handle',
      description: 'Your judge handle in this channel’s rank posts (proven by a profile token)',
      options: [
        {
          type: STRING,
          name: PLATFORM_OPTION,
          description: 'The judge',
          required: true,
          choices: RESULT_PLATFORM_CHOICES,
        },
        {
          type: STRING,
          name: 'handle',
          description: 'Your handle there (run again to check the proof)',
          required: false,
        },
        {
          type: BOOLEAN,
          name: 'remove',
          description: 'Take your handle of this judge off this channel’s posts',
          required: false,
        },
      ],
    },
    {
      type: SUB_COMMAND_GROUP,
      name: 'roles',
      description: 'The roles a channel’s announcements ping, which members take with a button',
      options: [
        {
          type: SUB_COMMAND,
          name: 'list',
          description: 'Which role each platform or contest type pings',
          options: [{ ...channelOption('The channel (default: this one)'), required: false }],
        },
        {
          type: SUB_COMMAND,
          name: 'set',
          description: 'Ping a role for a platform or contest type (Manage Channels)',
          options: [
            channelOption('The channel'),
            {
              type: STRING,
              name: 'platform',
              description: 'A platform (codeforces) or a contest type (div2)',
              required: true,
            },
            { type: ROLE, name: 'role', description: 'The role to ping', required: true },
          ],
        },
        {
          type: SUB_COMMAND,
          name: 'unset',
          description: 'No role of its own for a platform or contest type (Manage Channels)',
          options: [
            channelOption('The channel'),
            {
              type: STRING,
              name: 'platform',
              description: 'A platform (codeforces) or a contest type (div2)',
              required: true,
            },
          ],
        },
      ],
    },
  ],
}

/** Every command, as one bulk overwrite (PUT /applications/{id}/commands) takes them. */
export const DISCORD_COMMANDS = [CONTESTS_COMMAND]

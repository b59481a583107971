// The application's slash commands as Discord registers them (`npm run discord:register`, and
// `npm run deploy` when the application is set): `/contests upcoming [platform]`.
import { PLATFORM_MODULES } from '../../platforms/registry.ts'

// Discord's option and command types.
const SUB_COMMAND = 1
const STRING = 3
const CHAT_INPUT = 1
// Discord takes at most 25 choices for an option.
export const MAX_CHOICES = 25

export const PLATFORM_OPTION = 'platform'

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
          choices: PLATFORM_MODULES.map((p) => ({
            name: p.name,
            value: p.id,
          })),
        },
      ],
    },
  ],
}

/** Every command, as one bulk overwrite (PUT /applications/{id}/commands) takes them. */
export const DISCORD_COMMANDS = [CONTESTS_COMMAND]

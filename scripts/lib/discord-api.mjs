// The Discord API calls of the tooling: the application's slash commands, replaced in bulk
// (global, or on one guild, where changes show at once, for testing). Used by
// `npm run discord:register`; DISCORD_API_URL points it at a stand-in.

/** A client for one application; a refused call throws with Discord's message. */
export function discordApplication({ applicationId, botToken, apiUrl }) {
  const base = `${(apiUrl || 'https://discord.com/api/v10').replace(/\/+$/, '')}/applications/${applicationId}`
  const commandsPath = (guildId) => (guildId ? `/guilds/${guildId}/commands` : '/commands')
  async function call(method, path, body) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { Authorization: `Bot ${botToken}`, 'Content-Type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(10_000),
    })
    const answer = await res.json().catch(() => ({}))
    if (!res.ok) {
      throw new Error(
        `Discord refused ${method} ${path} (${res.status}): ${answer.message ?? 'no reason'}`,
      )
    }
    return answer
  }
  return {
    /** The commands registered now, globally or on `guildId`. */
    commands: (guildId) => call('GET', commandsPath(guildId)),
    /** Replaces every command, globally or on `guildId`, with `commands`. */
    setCommands: (commands, guildId) => call('PUT', commandsPath(guildId), commands),
  }
}

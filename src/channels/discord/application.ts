// The Discord application of this deployment, when it has one (an id and a well-formed public
// key), and the link that adds it to a server.
import { settings, type Env } from '../../env.ts'
import { isPublicKeyHex } from './interaction-signature.ts'

export function discordApplication(env: Env) {
  const s = settings(env)
  if (!s.DISCORD_APPLICATION_ID || !isPublicKeyHex(s.DISCORD_PUBLIC_KEY)) return undefined
  const id = s.DISCORD_APPLICATION_ID
  return {
    id,
    publicKey: s.DISCORD_PUBLIC_KEY,
    // The bot joins with the commands and nothing else (permissions 0); a server grants it the
    // channels it may post in.
    installUrl: `https://discord.com/oauth2/authorize?client_id=${encodeURIComponent(id)}&scope=applications.commands+bot&permissions=0`,
  }
}

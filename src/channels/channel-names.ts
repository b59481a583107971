// The delivery channels' names, apart from their providers, so the outbox can name them too.
export const CHANNELS = ['email', 'whatsapp', 'push', 'telegram', 'discord'] as const
export type Channel = (typeof CHANNELS)[number]

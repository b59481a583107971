// Telegram's answers as the tests script them on the Bot API stand-in.

/** sendMessage's 400 when the group became a supergroup, naming the supergroup's id. */
export const upgradedToSupergroup = (chatId: number | string) => ({
  status: 400,
  body: {
    ok: false,
    error_code: 400,
    description: 'Bad Request: group chat was upgraded to a supergroup chat',
    parameters: { migrate_to_chat_id: Number(chatId) },
  },
})

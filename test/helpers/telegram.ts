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

/** sendMessage's 403 once the bot was removed from the supergroup: the group is gone for good. */
export const botKicked = {
  status: 403,
  body: {
    ok: false,
    error_code: 403,
    description: 'Forbidden: bot was kicked from the supergroup chat',
  },
}

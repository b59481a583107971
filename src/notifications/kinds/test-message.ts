// The test message an admin sends over one channel to check it, straight through the provider
// (no notification is stored): the same title and text on every channel.
import { toIso } from '../../lib/time.ts'

const TEST_MESSAGE_TITLE = 'Contest Alerts test message'

export function testMessage(now: number) {
  const text =
    `This is a test message from Contest Alerts, sent at ${toIso(now)}. ` + 'No action is needed.'
  return {
    email: { subject: TEST_MESSAGE_TITLE, text, html: `<p>${text}</p>` },
    /** {{1}} the title, {{2}} the text, as for every notification. */
    whatsapp: [TEST_MESSAGE_TITLE, text],
    push: { title: TEST_MESSAGE_TITLE, body: text, tag: 'test' },
  }
}

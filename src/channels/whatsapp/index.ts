// The WhatsApp channel: a Cloud API template message to the verified phone number, its variables
// {{1}} the headline and {{2}} the summary; or the local outbox.
import { defineChannel, resultOf } from '../define.ts'
import { sendWhatsApp, whatsappProvider } from './cloud-api.ts'

export const whatsapp = defineChannel({
  id: 'whatsapp',
  label: 'WhatsApp',
  defaultOn: true,
  switchField: 'notifyWhatsapp',
  destination: { kind: 'phone' },
  // A number that cannot take messages is the user's to fix; nothing turns WhatsApp off.
  blockable: false,
  batchSize: 100,
  provider: (env) => {
    const kind = whatsappProvider(env)
    return kind === 'none' ? undefined : { env, kind }
  },
  render: (t) => [t.headline, t.summary],
  send: async (p, { to, message, reference }) =>
    resultOf(await sendWhatsApp(p.env, { to, params: message, reference })),
})

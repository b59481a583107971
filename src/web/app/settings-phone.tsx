// The "Phone and WhatsApp" section: the number (set, changed or removed through the profile
// update, which drops a verification of another number), and its verification: a code sent over
// WhatsApp, then typed here. WhatsApp alerts go only to a verified number.
import { z } from '@hono/zod-openapi'
import { code } from '../../auth/schemas.ts'
import { FormErrors } from './form-controls.tsx'
import { errorIn, Section, SettingsForm, TextInput } from './settings-controls.tsx'
import { oneText, textOf, type SettingsForm as FormSpec } from './settings-form.ts'
import { editOf, type SectionInput } from './settings-view.ts'

const numberFields = z.strictObject({ phoneNumber: oneText('Phone number').optional() })

export const phoneForm: FormSpec<z.infer<typeof numberFields>> = {
  id: 'phone',
  fields: numberFields,
  // Empty removes the number, as the API's empty string or null does.
  toUpdate: (f) => ({ phoneNumber: f.phoneNumber?.trim() ? f.phoneNumber : null }),
  labels: { phoneNumber: 'Phone number' },
  places: { phoneNumber: 'phoneNumber' },
}

/** The code form's body: the API's own code rule (POST /users/phone/verify). */
export const PhoneCodeForm = z.strictObject({ code })

/** The forms of this section, as their errors come back. */
export const PHONE_FORMS = { number: 'phone', send: 'phone-send', verify: 'phone-verify' } as const

export function PhoneSection({ view, edit, notice }: SectionInput) {
  const { profile, available } = view
  const numberEdit = editOf(edit, PHONE_FORMS.number)
  const sendEdit = editOf(edit, PHONE_FORMS.send)
  const verifyEdit = editOf(edit, PHONE_FORMS.verify)
  const stored = profile.phoneNumber
  return (
    <Section id="phone" title="Phone and WhatsApp" notice={notice}>
      <p id="phone-state" class="lead">
        {!stored
          ? 'No phone number yet. Add one to get alerts over WhatsApp.'
          : profile.phoneVerified
            ? `${stored} is verified: WhatsApp alerts can go to it.`
            : `${stored} is not verified yet: send a code to it, then type the code below.`}
      </p>
      {sendEdit && <FormErrors errors={sendEdit.errors.form} />}
      <SettingsForm action="phone" errors={numberEdit?.errors} submit="Save phone number">
        <TextInput
          name="phoneNumber"
          label="Phone number"
          type="tel"
          autocomplete="tel"
          inputmode="tel"
          maxlength={32}
          hint="With the country code, e.g. +14155550123. Leave empty to remove it; a new number needs a new code."
          value={numberEdit ? textOf(numberEdit.values, 'phoneNumber') : (stored ?? '')}
          error={errorIn(numberEdit?.errors, 'phoneNumber')}
        />
      </SettingsForm>
      {stored && !profile.phoneVerified && !available.whatsapp && (
        <p id="whatsapp-unavailable" class="callout">
          WhatsApp is not available on this server, so no code can be sent.
        </p>
      )}
      {stored && !profile.phoneVerified && available.whatsapp && (
        <>
          <SettingsForm action="phone/send-code" submit="Send code over WhatsApp" secondary>
            <p class="hint">A 6-digit code, valid for 10 minutes. At most 3 an hour.</p>
          </SettingsForm>
          <SettingsForm action="phone/verify" errors={verifyEdit?.errors} submit="Verify number">
            <TextInput
              name="code"
              label="Code from WhatsApp"
              autocomplete="one-time-code"
              inputmode="numeric"
              maxlength={6}
              value={verifyEdit ? textOf(verifyEdit.values, 'code') : ''}
              error={errorIn(verifyEdit?.errors, 'code')}
            />
          </SettingsForm>
        </>
      )}
    </Section>
  )
}

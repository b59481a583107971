// IANA zones under their current names, and a zone in words people read, for the server and, as
// ZONE_SCRIPT, the page's script: Chromium's Intl still answers legacy names such as Asia/Calcutta.

/**
 * Zones IANA renamed whose old name ICU may still answer (as a browser's own zone or in the list of
 * supported zones); the new name is the one people know their city by.
 */
export const RENAMED_ZONES: Readonly<Record<string, string>> = {
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Rangoon': 'Asia/Yangon',
  'Europe/Kiev': 'Europe/Kyiv',
  'America/Godthab': 'America/Nuuk',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Pacific/Truk': 'Pacific/Chuuk',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Coral_Harbour': 'America/Atikokan',
}

function runtimeKnows(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/**
 * `zone` under its current IANA name (Asia/Calcutta is Asia/Kolkata), when the runtime takes that
 * name: an old ICU that knows only the legacy one keeps it, so the zone still works everywhere.
 */
export function currentZoneName(zone: string): string {
  const renamed = Object.hasOwn(RENAMED_ZONES, zone) ? RENAMED_ZONES[zone] : undefined
  return renamed && runtimeKnows(renamed) ? renamed : zone
}

/**
 * The place a zone is named after, as people write it: "America/New_York" is "New York",
 * "America/Argentina/Buenos_Aires" "Buenos Aires". Etc/ zones and "UTC" keep their id, whose
 * place part would mislead (Etc/GMT+5 is five hours behind GMT).
 */
export function zonePlace(zone: string): string {
  if (!zone.includes('/') || zone.startsWith('Etc/')) return zone
  return zone.slice(zone.lastIndexOf('/') + 1).replace(/_/g, ' ')
}

/**
 * The two functions above for the page's script (ES2017, over the same table). A browser only
 * shows the name, so it renames without asking its Intl; the tests hold both to the same answers.
 */
export const ZONE_SCRIPT = `var RENAMED_ZONES = ${JSON.stringify(RENAMED_ZONES)}
  function currentZoneName(zone) {
    return Object.prototype.hasOwnProperty.call(RENAMED_ZONES, zone) ? RENAMED_ZONES[zone] : zone
  }
  function zonePlace(zone) {
    if (zone.indexOf('/') < 0 || zone.indexOf('Etc/') === 0) return zone
    return zone.slice(zone.lastIndexOf('/') + 1).replace(/_/g, ' ')
  }`

/** Wall-clock times in an IANA time zone, with the browser's Intl only (no date library in the bundle). */

function wallParts(zone: string, at: number): Record<string, number> {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(at));
  const out: Record<string, number> = {};
  for (const part of parts) if (part.type !== 'literal') out[part.type] = Number(part.value);
  return out;
}

/** How far the zone's wall clock is ahead of UTC at `at`, in ms. */
function offsetAt(zone: string, at: number): number {
  const p = wallParts(zone, at);
  const wall = Date.UTC(
    p.year ?? 1970,
    (p.month ?? 1) - 1,
    p.day ?? 1,
    p.hour ?? 0,
    p.minute ?? 0,
    p.second ?? 0,
  );
  return wall - Math.floor(at / 1000) * 1000;
}

/** `2026-03-23T02:00` read in `zone` → the instant, as ISO (a time the spring change skips moves forward). */
export function zonedToIso(local: string, zone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(local);
  if (!match) return null;
  const [, y, mo, d, h, mi] = match.map(Number);
  const wall = Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0);
  try {
    let at = wall - offsetAt(zone, wall);
    at = wall - offsetAt(zone, at);
    return new Date(at).toISOString();
  } catch {
    return null;
  }
}

/** An instant → `YYYY-MM-DDTHH:mm` on the wall clock of `zone` (what a datetime-local input holds). */
export function isoToZoned(iso: string, zone: string): string {
  try {
    const p = wallParts(zone, Date.parse(iso));
    const two = (n: number | undefined) => String(n ?? 0).padStart(2, '0');
    return `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}`;
  } catch {
    return '';
  }
}

/**
 * An instant as people read it, in `zone`: "Mon, 23 Mar 2026, 02:00" (24-hour, as the calendars
 * and the time inputs beside it show times).
 */
export function formatIn(iso: string, zone: string, withZone = false): string {
  try {
    return new Intl.DateTimeFormat(undefined, {
      timeZone: zone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      ...(withZone ? { timeZoneName: 'short' } : {}),
    }).format(new Date(iso));
  } catch {
    return new Date(iso).toLocaleString();
  }
}

/**
 * Zones IANA has renamed that browsers still list (and report) by their old names, CLDR's canonical
 * ones: people look for Kolkata and Kyiv, not Calcutta and Kiev. Both names work everywhere.
 */
const RENAMED_ZONES: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Ulan_Bator': 'Asia/Ulaanbaatar',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

/** A zone by its current IANA name. */
export const currentZoneName = (zone: string): string => RENAMED_ZONES[zone] ?? zone;

/** The browser's own time zone (the API does not say an organization's). */
export function browserZone(): string {
  return currentZoneName(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
}

/** Every IANA zone the browser knows, by its current name, for the picker. */
export function knownZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  const zones = [...new Set((intl.supportedValuesOf?.('timeZone') ?? []).map(currentZoneName))].sort();
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

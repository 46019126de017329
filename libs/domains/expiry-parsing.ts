/** The expiration date of an RDAP domain answer (RFC 9083 `events`), if it has one. */
export function rdapExpiry(answer: unknown): Date | null {
  const events = (answer as { events?: unknown })?.events;
  if (!Array.isArray(events)) return null;
  for (const event of events) {
    const { eventAction, eventDate } = (event ?? {}) as { eventAction?: unknown; eventDate?: unknown };
    if (eventAction === 'expiration' && typeof eventDate === 'string') {
      const date = new Date(eventDate);
      if (!Number.isNaN(date.getTime())) return date;
    }
  }
  return null;
}

const WHOIS_EXPIRY =
  /^\s*(?:registry expiry date|registrar registration expiration date|expiration date|expiry date|expires(?: on)?|paid-till|renewal date)\s*:\s*(.+?)\s*$/im;

/** The expiration date in a raw WHOIS answer, if it has a line for it the common registries use. */
export function whoisExpiry(text: string): Date | null {
  const match = WHOIS_EXPIRY.exec(text);
  if (!match?.[1]) return null;
  const date = new Date(match[1].replace(/\s+UTC$/i, 'Z').replace(/^(\d{4})\.(\d\d)\.(\d\d)/, '$1-$2-$3'));
  return Number.isNaN(date.getTime()) ? null : date;
}

import { describe, expect, it } from 'vitest';
import { CATALOG, fill, PAGE_LANGUAGES, placeholdersOf, translator } from './catalog.js';

describe('the catalog of a status page’s words', () => {
  const keys = Object.keys(CATALOG.en) as Array<keyof typeof CATALOG.en>;

  it.each(PAGE_LANGUAGES)('%s has every key, none empty, with the placeholders English has', (language) => {
    const messages = CATALOG[language];
    expect(Object.keys(messages).sort()).toEqual([...keys].sort());
    for (const key of keys) {
      expect(messages[key].trim(), `${language} ${key}`).not.toBe('');
      expect(placeholdersOf(messages[key]), `${language} ${key}`).toEqual(placeholdersOf(CATALOG.en[key]));
    }
  });

  it('translates the words visitors read most', () => {
    const words = PAGE_LANGUAGES.map((language) => translator({ language }).text('status.up'));
    expect(words).toEqual(['Operational', 'Betriebsbereit', 'Opérationnel', 'Operationeel', 'Operativo']);
    expect(translator({ language: 'de' }).text('page.subscribe')).toBe('Updates abonnieren');
  });

  it('fills placeholders, leaving unknown ones as written', () => {
    expect(fill('{title}: {missing}', { title: 'Acme' })).toBe('Acme: {missing}');
  });

  it('says durations in the page’s words', () => {
    expect(translator({ language: 'de' }).duration(3 * 86_400 + 7200)).toBe('3 Tage 2 h');
    expect(translator().duration(125)).toBe('2 min');
  });
});

describe('moments in the page’s time zone and locale', () => {
  it('writes Berlin time across the spring change of clocks, the zone named', () => {
    const t = translator({ language: 'de', timezone: 'Europe/Berlin' });
    // 2026-03-29 01:00 UTC: clocks in Berlin go from 02:00 CET to 03:00 CEST.
    expect(t.dateTime('2026-03-29T00:30:00.000Z')).toBe('29. März 2026, 01:30 MEZ');
    expect(t.dateTime('2026-03-29T01:30:00.000Z')).toBe('29. März 2026, 03:30 MESZ');
  });

  it('writes the autumn change, when an hour of the clock happens twice', () => {
    const t = translator({ language: 'en', timezone: 'Europe/London' });
    expect(t.dateTime('2026-10-25T00:30:00.000Z')).toBe('25 Oct 2026, 01:30 BST');
    expect(t.dateTime('2026-10-25T01:30:00.000Z')).toBe('25 Oct 2026, 01:30 GMT');
  });

  it('names months in the page’s language; an unknown zone or language is UTC and English', () => {
    expect(translator({ language: 'fr' }).month('2026-03')).toBe('mars 2026');
    expect(translator({ language: 'es' }).month('2026-12')).toBe('diciembre de 2026');
    const fallback = translator({ timezone: 'Mars/Olympus' });
    expect(fallback.timezone).toBe('UTC');
    expect(fallback.dateTime('2026-11-29T09:00:00.000Z')).toBe('29 Nov 2026, 09:00 UTC');
  });
});

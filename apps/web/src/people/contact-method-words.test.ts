import { describe, expect, it } from 'vitest';
import { daysText, eventsText, hoursText } from './contact-method-words.js';

describe('a contact method’s hours and events in words', () => {
  it('names days as runs of the week', () => {
    expect(daysText([1, 2, 3, 4, 5])).toBe('Mon–Fri');
    expect(daysText([7, 6, 1, 2, 3, 4, 5])).toBe('every day');
    expect(daysText([1, 3, 6, 7])).toBe('Mon, Wed, Sat–Sun');
    expect(daysText([2])).toBe('Tue');
  });

  it('says hours: at any hour, a span, over midnight, all day', () => {
    expect(hoursText(null)).toBe('At any hour');
    expect(hoursText({ timezone: 'Europe/Berlin', days: [1, 2, 3, 4, 5], from: '09:00', to: '18:00' })).toBe(
      'Mon–Fri, 09:00–18:00, Europe/Berlin time',
    );
    expect(hoursText({ timezone: 'UTC', days: [6, 7], from: '22:00', to: '06:00' })).toBe(
      'Sat–Sun, 22:00–06:00 (over midnight), UTC time',
    );
    expect(hoursText({ timezone: 'UTC', days: [1, 2, 3, 4, 5, 6, 7], from: '00:00', to: '00:00' })).toBe(
      'Every day, all day, UTC time',
    );
  });

  it('lists events in their order', () => {
    expect(eventsText(['acknowledged', 'alert', 'recovery'])).toBe('alerts, recoveries and acknowledgements');
    expect(eventsText(['recovery', 'alert'])).toBe('alerts and recoveries');
    expect(eventsText(['alert'])).toBe('alerts');
  });
});

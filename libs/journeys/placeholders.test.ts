import { describe, expect, it } from 'vitest';
import { browserJourney } from './browser-journey.schema.js';
import { fillJourney, journeyTexts } from './journey-texts.js';
import { fillPlaceholders, maskSecrets, placeholdersIn, secretMasks } from './placeholders.js';

const values = { variables: { city: 'Berlin', braces: '{{city}}' }, secrets: { PASSWORD: 'hunter22' } };

describe('placeholders', () => {
  it.each([
    ['Hello {{city}}', 'Hello Berlin'],
    ['{{ city }} and {{city}}', 'Berlin and Berlin'],
    ['{{secret.PASSWORD}}', 'hunter22'],
    ['{{ secret.PASSWORD }}!', 'hunter22!'],
    ['{{unknown}} stays', '{{unknown}} stays'],
    ['{{secret.city}} is a secret, not the variable', '{{secret.city}} is a secret, not the variable'],
    ['one pass: {{braces}}', 'one pass: {{city}}'],
    ['not one: {{a b}} {city} {{}}', 'not one: {{a b}} {city} {{}}'],
    ['{{toString}} is no variable', '{{toString}} is no variable'],
  ])('fills %s', (text, filled) => {
    expect(fillPlaceholders(text, values)).toBe(filled);
  });

  it('lists them in order, with their kind', () => {
    expect(placeholdersIn('{{user}}:{{ secret.PASSWORD }}@{{user}}')).toEqual([
      { kind: 'variable', name: 'user', text: '{{user}}' },
      { kind: 'secret', name: 'PASSWORD', text: '{{ secret.PASSWORD }}' },
      { kind: 'variable', name: 'user', text: '{{user}}' },
    ]);
  });

  it('lists what a run must blank: each secret as typed, in a URL, in JSON, and basic auth', () => {
    const masks = secretMasks({
      secrets: { PASSWORD: 'p@ss "word"', PIN: '123', TOKEN: 'abcd' },
      basicAuth: { username: 'staging', password: 'p@ss "word"' },
    });
    expect(masks).toEqual(
      expect.arrayContaining([
        'p@ss "word"',
        'p%40ss%20%22word%22',
        'p@ss \\"word\\"',
        btoa('staging:p@ss "word"'),
        'abcd',
      ]),
    );
    expect(masks).not.toContain('123');
    expect([...masks].sort((a, b) => b.length - a.length)).toEqual(masks);
    expect(maskSecrets('typed p@ss "word" then {"v":"p@ss \\"word\\""}', masks)).toBe(
      'typed [redacted] then {"v":"[redacted]"}',
    );
  });
});

describe('fillJourney', () => {
  const journey = browserJourney.parse({
    steps: [
      { action: 'goto', url: 'https://shop.example/{{city}}' },
      {
        action: 'fill',
        locator: { by: 'label', text: 'Password for {{city}}' },
        value: '{{secret.PASSWORD}}',
      },
      { action: 'click', locator: { by: 'css', selector: '#go' } },
      { action: 'expect', that: 'title', title: { contains: '{{city}}' } },
    ],
    variables: { city: 'Berlin' },
    secrets: { PASSWORD: 'hunter22' },
    extraHeaders: { 'X-City': '{{city}}' },
    basicAuth: { username: 'u', password: '{{secret.PASSWORD}}' },
  });

  it('fills every placeholder-holding text with the variables and the opened secrets', () => {
    const filled = fillJourney(journey, { secrets: { PASSWORD: 'opened' } });
    expect(filled.steps[0]).toEqual({ action: 'goto', url: 'https://shop.example/Berlin' });
    expect(filled.steps[1]).toMatchObject({ locator: { text: 'Password for Berlin' }, value: 'opened' });
    expect(filled.steps[3]).toMatchObject({ title: { contains: 'Berlin' } });
    expect(filled.extraHeaders).toEqual({ 'X-City': 'Berlin' });
    expect(filled.basicAuth).toEqual({ username: 'u', password: 'opened' });
    expect(journey.steps[1]).toMatchObject({ value: '{{secret.PASSWORD}}' });
  });

  it('lists the texts with their paths (selectors are not among them)', () => {
    expect(journeyTexts(journey).map((text) => text.path.join('.'))).toEqual([
      'steps.0.url',
      'steps.1.locator.text',
      'steps.1.value',
      'steps.3.title.contains',
      'extraHeaders.X-City',
      'basicAuth.username',
      'basicAuth.password',
    ]);
  });
});

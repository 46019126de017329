import { describe, expect, it } from 'vitest';
import { browserJourney } from './browser-journey.schema.js';
import { fillJourney, journeyTexts } from './journey-texts.js';
import { maskSecrets, secretMasks } from './placeholders.js';

describe('secretMasks', () => {
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

  it('blanks a secret as a page or a server echoes it: HTML-escaped, + for spaces, lower-case %xx, \\/', () => {
    const masks = secretMasks({ secrets: { PASSWORD: 'Tom & Jerry/<3' } });
    const echoed = [
      '<input value="Tom &amp; Jerry/&lt;3">',
      'GET /login?p=Tom+%26+Jerry%2F%3C3',
      'POST p=Tom%20%26%20Jerry%2f%3c3',
      '{"p":"Tom & Jerry\\/<3"}',
      '{"p":"Tom \\u0026 Jerry/\\u003c3"}',
    ];
    for (const text of echoed) expect(maskSecrets(text, masks)).not.toMatch(/Jerry/);
  });

  it('blanks the parts of a secret that is a credential: after its scheme, a cookie’s values', () => {
    const masks = secretMasks({ secrets: { AUTH: 'Bearer tok_live_42', COOKIE: 'sid=S3ssion; theme=dark' } });
    expect(maskSecrets('token tok_live_42, session S3ssion', masks)).toBe(
      'token [redacted], session [redacted]',
    );
  });
});

describe('a journey’s variables and secrets, when written', () => {
  const journey = (options: Record<string, unknown>) =>
    browserJourney.safeParse({ steps: [{ action: 'goto', url: 'https://shop.example/' }], ...options });
  const problems = (options: Record<string, unknown>) =>
    journey(options).error?.issues.map((issue) => [issue.path.join('.'), issue.message]) ?? [];

  it('takes a variable whose name begins with a letter or _, a secret whose name begins with a digit', () => {
    expect(problems({ variables: { _base: 'x', city2: 'y' }, secrets: { '2FA_SEED': 'JBSWY3DP' } })).toEqual(
      [],
    );
  });

  it('refuses a variable whose name begins with a digit, naming the field and the rule', () => {
    expect(problems({ variables: { '2fa': 'x' } })).toEqual([
      [
        'variables.2fa',
        'Must be a variable name: a letter or _, then letters, digits or _ (at most 64 in all)',
      ],
    ]);
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

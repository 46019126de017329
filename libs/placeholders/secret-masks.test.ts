import { describe, expect, it } from 'vitest';
import { maskSecrets, secretForms } from './secret-masks.js';

const basic = (pair: string) => `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(pair)))}`;

describe('secretForms', () => {
  it('lists a value as encoders write it: URL-encoded either case and with +, JSON, \\/ and HTML', () => {
    const forms = secretForms(['p&ss/w0rd<x> y']);
    expect(forms).toEqual(
      expect.arrayContaining([
        'p&ss/w0rd<x> y',
        'p%26ss%2Fw0rd%3Cx%3E%20y',
        'p%26ss%2fw0rd%3cx%3e%20y',
        'p%26ss%2Fw0rd%3Cx%3E+y',
        'p&ss\\/w0rd<x> y',
        'p\\u0026ss\\/w0rd\\u003cx\\u003e y',
        'p&amp;ss/w0rd&lt;x&gt; y',
      ]),
    );
    expect([...forms].sort((a, b) => b.length - a.length)).toEqual(forms);
  });

  it('takes the credential after an auth scheme, a Basic pair decoded (UTF-8) and its password', () => {
    const forms = secretForms(['Bearer tok_live_1', basic('admin:pässwort')]);
    expect(forms).toEqual(
      expect.arrayContaining(['tok_live_1', 'admin:pässwort', 'pässwort', 'p%C3%A4sswort']),
    );
  });

  it('takes a Basic value in base64url and passes over one that is not base64', () => {
    const urlSafe = basic('u:a?>b').replaceAll('/', '_').replaceAll('+', '-').replace(/=+$/, '');
    expect(secretForms([urlSafe])).toContain('a?>b');
    const notBase64 = secretForms(['Basic not*base64:!']);
    expect(notBase64).toContain('not*base64:!');
    expect(notBase64.every((form) => form.includes('not*base64'))).toBe(true);
  });

  it('lists a cookie header’s pairs and their values', () => {
    expect(secretForms(['session=S3cr3tSess; csrf=Csrf0Tok'])).toEqual(
      expect.arrayContaining(['session=S3cr3tSess', 'S3cr3tSess', 'csrf=Csrf0Tok', 'Csrf0Tok']),
    );
  });

  it('leaves out forms shorter than 4 characters', () => {
    const forms = secretForms(['abc', 'Bearer xy']);
    expect(forms).toContain('Bearer xy');
    expect(forms.filter((form) => form.length < 4)).toEqual([]);
    expect(forms).not.toContain('xy');
  });
});

describe('maskSecrets', () => {
  it('blanks each mask, a longer one first, as [redacted]', () => {
    const masks = secretForms(['hunter22', 'hunter22-admin']);
    expect(maskSecrets('hunter22-admin then hunter22', masks)).toBe('[redacted] then [redacted]');
    expect(maskSecrets('nothing here', masks)).toBe('nothing here');
  });
});

import { describe, expect, it } from 'vitest';
import { classifyProbeError } from './probe-error.js';

const networkError = (code: string, fields: Record<string, unknown>) =>
  Object.assign(new Error(`connect ${code} 127.0.0.1:41923`), { code, ...fields });

describe('classifyProbeError: network failures in words, the code kept', () => {
  it('a refused connection says what it means and where', () => {
    expect(
      classifyProbeError(
        networkError('ECONNREFUSED', { address: '127.0.0.1', port: 41923 }),
        'connect',
        false,
      ),
    ).toEqual({
      code: 'CONNECT',
      message:
        'connection refused: nothing listens on that port, or a firewall refuses it (ECONNREFUSED, 127.0.0.1:41923)',
    });
  });

  it('a name that does not resolve names the host', () => {
    expect(classifyProbeError(networkError('ENOTFOUND', { hostname: 'shop.invalid' }), 'dns', false)).toEqual(
      {
        code: 'DNS',
        message: 'DNS lookup failed: the name does not resolve (no such host) (ENOTFOUND, shop.invalid)',
      },
    );
  });

  it('an error it has no words for keeps the library message', () => {
    expect(classifyProbeError(networkError('EWEIRD', {}), 'connect', false).message).toBe(
      'connection failed: connect EWEIRD 127.0.0.1:41923',
    );
  });
});

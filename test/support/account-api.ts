import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The account API's password, the token it answers to it and the session cookie's value. */
export const ACCOUNT = {
  password: 'c0rrect-h0rse-battery',
  token: 'tok-7f3a9c2e51d8',
  session: 'sess-41b7e0d2',
} as const;

export interface AccountApi {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): void;
}

/**
 * The API an API flow signs in to: POST /login takes the password as JSON and answers a token in
 * its JSON body and a session cookie (echoing the password back, as a careless server may); GET /me
 * answers the account to the token and the cookie together, 401 otherwise — with every credential
 * it was sent, as a debugging server may.
 */
export async function startAccountApi(): Promise<AccountApi> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST' && req.url === '/login') {
        const sent = JSON.parse(body || '{}') as { email?: string; password?: string };
        if (sent.password !== ACCOUNT.password) {
          res.statusCode = 401;
          return res.end(JSON.stringify({ error: 'wrong password', youSent: sent.password }));
        }
        res.setHeader('set-cookie', `session=${ACCOUNT.session}; Path=/; HttpOnly`);
        return res.end(
          JSON.stringify({ token: ACCOUNT.token, echo: sent.password, user: { email: sent.email } }),
        );
      }
      if (req.method === 'GET' && req.url === '/me') {
        const signedIn =
          req.headers.authorization === `Bearer ${ACCOUNT.token}` &&
          (req.headers.cookie ?? '').includes(ACCOUNT.session);
        res.statusCode = signedIn ? 200 : 401;
        const {
          authorization = null,
          cookie = null,
          'x-token-hint': hint = null,
          'x-password': password = null,
        } = req.headers;
        return res.end(
          JSON.stringify(
            signedIn
              ? { name: 'Ada', plan: 'pro', token: ACCOUNT.token }
              : { error: 'not signed in', got: { authorization, cookie, hint, password } },
          ),
        );
      }
      res.statusCode = 404;
      res.end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => server.close(),
  };
}

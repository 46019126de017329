// End to end HTTPS for a status page's own domain: Caddy run with deploy/Caddyfile gets its
// certificate on demand from Pebble (Let's Encrypt's test CA), which validates the challenge
// against Caddy through a local DNS answering the test domains with 127.0.0.1; Caddy asks the
// API's /internal/tls/ask first, through a recording proxy that notes each answer.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type AddressInfo, connect, createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DnsServer, startDnsServer } from './support/dns-server.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';

const PEBBLE_VERSION = 'v2.10.3';
const DOMAIN = 'status.client.test';
const UNVERIFIED = 'unverified.client.test';
const SETUP = 'run scripts/setup.sh (it installs Debian’s caddy and builds Pebble with Go)';

function pebbleBinary(): { bin: string; certs: string } {
  let gopath: string;
  let modcache: string;
  try {
    gopath = execFileSync('go', ['env', 'GOPATH'], { encoding: 'utf8' }).trim();
    modcache = execFileSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(`Go is not installed: ${SETUP}`);
  }
  const gobin = execFileSync('go', ['env', 'GOBIN'], { encoding: 'utf8' }).trim() || join(gopath, 'bin');
  return {
    bin: join(gobin, 'pebble'),
    certs: join(modcache, `github.com/letsencrypt/pebble/v2@${PEBBLE_VERSION}/test/certs`),
  };
}

async function freePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForPort(port: number, what: string, output: () => string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`${what} did not listen on ${port}:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function started(
  command: string,
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; output: () => string } {
  let text = '';
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (chunk: Buffer) => {
    text = (text + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, output: () => text };
}

async function stopped(child: ChildProcess | undefined) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** A GET over HTTPS to 127.0.0.1:`port` with SNI and Host `servername`, trusting `ca` alone. */
function getOverTls(
  port: number,
  servername: string,
  ca: string,
): Promise<{ status: number; body: string; issuer: string }> {
  return new Promise((resolve, reject) => {
    const sent = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        servername,
        path: '/',
        headers: { host: `${servername}:${port}` },
        ca,
        agent: false,
      },
      (response) => {
        const issuer = String((response.socket as TLSSocket).getPeerCertificate().issuer?.CN ?? '');
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), issuer }),
        );
      },
    );
    sent.setTimeout(60_000, () => sent.destroy(new Error('timed out')));
    sent.on('error', reject);
    sent.end();
  });
}

describe('HTTPS for a status page’s own domain (Caddy on demand, Pebble)', () => {
  let dns: DnsServer;
  let api: TestApi;
  let recorder: Server;
  const asks: Array<{ domain: string; status: number }> = [];
  let pebble: ReturnType<typeof started> | undefined;
  let caddy: ReturnType<typeof started> | undefined;
  let workDir: string;
  let httpsPort: number;
  let pebbleRoot: string;
  let title: string;

  beforeAll(async () => {
    const tools = pebbleBinary();
    try {
      execFileSync(tools.bin, ['-version'], { stdio: 'ignore' });
    } catch {
      throw new Error(`Pebble ${PEBBLE_VERSION} is not at ${tools.bin}: ${SETUP}`);
    }
    try {
      execFileSync('caddy', ['version'], { stdio: 'ignore' });
    } catch {
      throw new Error(`caddy is not installed: ${SETUP}`);
    }
    workDir = await mkdtemp(join(tmpdir(), 'webmon-tls-'));
    dns = await startDnsServer({ [DOMAIN]: { A: ['127.0.0.1'] }, [UNVERIFIED]: { A: ['127.0.0.1'] } });
    api = await TestApi.start({ DNS_RESOLVERS: dns.address, TRUST_PROXY: 'true' });

    // The page and its verified domain (by the token in TXT).
    const { token } = await api.createOrganization(['admin']);
    const customerId = await createCustomer(api, token, (await createPackage(api, token)).id);
    title = `Client status ${Date.now()}`;
    const page = await api.request<{ id: number }>('POST', '/api/status-pages', {
      token,
      body: { slug: `client-${Date.now()}`, title, customerId, public: true },
    });
    expect(page.status).toBe(201);
    for (const host of [DOMAIN, UNVERIFIED]) {
      const added = await api.request<{ records: Array<{ type: string; value: string }> }>(
        'POST',
        `/api/status-pages/${page.body.id}/domains`,
        { token, body: { host } },
      );
      expect(added.status).toBe(201);
      if (host === DOMAIN) {
        const txt = added.body.records.find((record) => record.type === 'TXT')?.value ?? '';
        dns.setZone({
          [DOMAIN]: { A: ['127.0.0.1'] },
          [UNVERIFIED]: { A: ['127.0.0.1'] },
          [`_webmon-challenge.${DOMAIN}`]: { TXT: [[txt]] },
        });
      }
    }
    const verified = await api.request<{ verified: boolean }>(
      'POST',
      `/api/status-pages/${page.body.id}/domains/${DOMAIN}/verify`,
      { token },
    );
    expect(verified.body.verified).toBe(true);

    // Caddy reaches the API through this proxy, which notes what the TLS ask answered.
    const apiUrl = new URL(api.api.url);
    recorder = createServer((incoming, outgoing) => {
      const forwarded = httpRequest(
        {
          host: apiUrl.hostname,
          port: apiUrl.port,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
        },
        (answer) => {
          const url = new URL(incoming.url ?? '/', 'http://x');
          if (url.pathname === '/internal/tls/ask')
            asks.push({ domain: url.searchParams.get('domain') ?? '', status: answer.statusCode ?? 0 });
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forwarded.on('error', () => outgoing.destroy());
      incoming.pipe(forwarded);
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    const upstream = `127.0.0.1:${(recorder.address() as AddressInfo).port}`;

    const [acmePort, managementPort, httpPort] = [await freePort(), await freePort(), await freePort()];
    httpsPort = await freePort();
    const config = join(workDir, 'pebble.json');
    await writeFile(
      config,
      JSON.stringify({
        pebble: {
          listenAddress: `127.0.0.1:${acmePort}`,
          managementListenAddress: `127.0.0.1:${managementPort}`,
          certificate: join(tools.certs, 'localhost/cert.pem'),
          privateKey: join(tools.certs, 'localhost/key.pem'),
          // Where Pebble validates challenges: Caddy's ports.
          httpPort,
          tlsPort: httpsPort,
          ocspResponderURL: '',
          externalAccountBindingRequired: false,
        },
      }),
    );
    pebble = started(tools.bin, ['-config', config, '-dnsserver', dns.address], {
      PEBBLE_VA_NOSLEEP: '1',
      PEBBLE_WFE_NONCEREJECT: '0',
      PEBBLE_VA_ALWAYS_VALID: '0',
    });
    await waitForPort(acmePort, 'Pebble', pebble.output);
    await waitForPort(managementPort, 'Pebble’s management API', pebble.output);
    const minica = await readFile(join(tools.certs, 'pebble.minica.pem'), 'utf8');
    pebbleRoot = await new Promise<string>((resolve, reject) => {
      const asked = httpsRequest(
        { host: '127.0.0.1', port: managementPort, path: '/roots/0', ca: minica, servername: 'localhost' },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => {
            text += chunk.toString('utf8');
          });
          response.on('end', () => resolve(text));
        },
      );
      asked.on('error', reject);
      asked.end();
    });
    expect(pebbleRoot).toContain('BEGIN CERTIFICATE');

    caddy = started('caddy', ['run', '--config', 'deploy/Caddyfile', '--adapter', 'caddyfile'], {
      WEBMON_UPSTREAM: upstream,
      ACME_CA: `https://localhost:${acmePort}/dir`,
      ACME_CA_ROOT: join(tools.certs, 'pebble.minica.pem'),
      HTTP_PORT: String(httpPort),
      HTTPS_PORT: String(httpsPort),
      HOME: workDir,
      XDG_DATA_HOME: join(workDir, 'data'),
      XDG_CONFIG_HOME: join(workDir, 'config'),
    });
    await waitForPort(httpsPort, 'Caddy', caddy.output);
  }, 90_000);

  afterAll(async () => {
    await stopped(caddy?.child);
    await stopped(pebble?.child);
    await new Promise((resolve) => (recorder ? recorder.close(resolve) : resolve(undefined)));
    await api?.stop();
    await dns?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('serves the page at / of its verified domain with a certificate from the ACME CA', async () => {
    const answer = await getOverTls(httpsPort, DOMAIN, pebbleRoot).catch((error: unknown) => {
      throw new Error(`${String(error)}\nCaddy:\n${caddy?.output()}\nPebble:\n${pebble?.output()}`);
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain(title);
    expect(answer.issuer).toMatch(/Pebble/i);
    expect(asks).toContainEqual({ domain: DOMAIN, status: 200 });
  }, 60_000);

  it('gets no certificate for a domain not verified: the handshake fails after the API said 404', async () => {
    await expect(getOverTls(httpsPort, UNVERIFIED, pebbleRoot)).rejects.toThrow();
    expect(asks).toContainEqual({ domain: UNVERIFIED, status: 404 });
    expect(pebble?.output()).not.toContain(UNVERIFIED);
  }, 60_000);
});

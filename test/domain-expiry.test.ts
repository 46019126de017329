import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDomainExpiryLookup } from '../libs/domains/index.js';
import { uniqueMongoUrl } from './support/harness.js';

describe('domain expiry lookup (local RDAP and WHOIS servers)', () => {
  let rdap: Server;
  let whois: TcpServer;
  let client: MongoClient;
  const rdapRequests: string[] = [];
  const whoisQueries: string[] = [];
  let rdapUrl: string;
  let whoisServer: string;

  beforeAll(async () => {
    rdap = createServer((req, res) => {
      rdapRequests.push(req.url ?? '');
      if (req.url === '/domain/example.com') {
        res.setHeader('content-type', 'application/rdap+json');
        res.end(
          JSON.stringify({
            ldhName: 'example.com',
            events: [{ eventAction: 'expiration', eventDate: '2031-08-13T04:00:00Z' }],
          }),
        );
      } else if (req.url === '/domain/moved.org') {
        res.statusCode = 302;
        res.setHeader('location', '/registry/domain/moved.org');
        res.end();
      } else if (req.url === '/registry/domain/moved.org') {
        res.end(
          JSON.stringify({ events: [{ eventAction: 'expiration', eventDate: '2027-01-02T00:00:00Z' }] }),
        );
      } else {
        res.statusCode = 404;
        res.end('{}');
      }
    });
    rdap.listen(0, '127.0.0.1');
    await once(rdap, 'listening');
    rdapUrl = `http://127.0.0.1:${(rdap.address() as AddressInfo).port}`;
    whois = createTcpServer((socket) => {
      socket.once('data', (data) => {
        const query = data.toString().trim();
        whoisQueries.push(query);
        socket.end(
          query === 'whois-only.net'
            ? `Domain Name: WHOIS-ONLY.NET\r\nRegistry Expiry Date: 2026-12-10T00:00:00Z\r\n`
            : 'No match\r\n',
        );
      });
    });
    whois.listen(0, '127.0.0.1');
    await once(whois, 'listening');
    whoisServer = `127.0.0.1:${(whois.address() as AddressInfo).port}`;
    client = new MongoClient(uniqueMongoUrl());
    await client.connect();
  });
  afterAll(async () => {
    rdap.close();
    whois.close();
    await client.db().dropDatabase();
    await client.close();
  });

  const lookup = () => createDomainExpiryLookup(client.db(), { rdapBaseUrl: rdapUrl, whoisServer });

  it('asks RDAP for the registrable domain of the host', async () => {
    expect(await lookup()('www.shop.example.com')).toEqual({
      name: 'example.com',
      expiresAt: new Date('2031-08-13T04:00:00Z'),
      error: null,
    });
  });

  it('follows RDAP redirects (as rdap.org sends them on to the registry)', async () => {
    expect((await lookup()('moved.org')).expiresAt?.toISOString()).toBe('2027-01-02T00:00:00.000Z');
  });

  it('falls back to WHOIS when RDAP has nothing', async () => {
    expect(await lookup()('www.whois-only.net')).toEqual({
      name: 'whois-only.net',
      expiresAt: new Date('2026-12-10T00:00:00Z'),
      error: null,
    });
    expect(whoisQueries).toContain('whois-only.net');
  });

  it('caches answers per domain for a day', async () => {
    const before = rdapRequests.length;
    await lookup()('a.example.com');
    await lookup()('b.example.com');
    expect(rdapRequests.length).toBe(before);
  });

  it('checks of one domain arriving together share one RDAP lookup', async () => {
    const asked = () => rdapRequests.filter((url) => url === '/registry/domain/moved.org').length;
    await client
      .db()
      .collection('domain_expiry')
      .deleteOne({ _id: 'moved.org' } as never);
    const before = asked();
    const shared = lookup();
    const answers = await Promise.all(
      ['a.moved.org', 'b.moved.org', 'moved.org'].map((host) => shared(host)),
    );
    expect(answers.map((a) => a.expiresAt?.toISOString())).toEqual(Array(3).fill('2027-01-02T00:00:00.000Z'));
    expect(asked() - before).toBe(1);
  });

  it('says why when neither knows the domain, and for IP addresses', async () => {
    const unknown = await lookup()('nobody.io');
    expect(unknown.expiresAt).toBeNull();
    expect(unknown.error).toMatch(/RDAP: RDAP answered 404; WHOIS answer has no expiration date/);
    expect((await lookup()('127.0.0.1')).error).toMatch(/no registrable domain/);
  });
});

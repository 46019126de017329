import { randomUUID } from 'node:crypto';
import type { Db } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { chunkedBulkWrite, UPDATES_PER_COMMAND } from '../libs/db/index.js';
import { type EventDocument, EventOutbox } from '../libs/events/index.js';
import { type SiteFinding, SiteFindings } from '../libs/site-health/index.js';
import { useStores } from './support/stores.js';

// FerretDB 1.24 holds a SQLite connection per update statement until its command ends, from a pool
// of 100: a command of 100 statements, or commands adding up to about that many at once, never
// end (and then no other update is answered). Every bulk update of ours goes 10 statements a
// command, one such command at a time in a process. Each case below writes well over 100 updates
// of existing documents, the last from several writers at once; without that, each hangs past its
// timeout.
describe('bulk writes of many updates', { timeout: 30_000 }, () => {
  const stores = useStores();
  let db: Db;

  beforeAll(() => {
    db = stores.client.db();
  });

  it('updates 250 existing documents in chunks, counting every one', async () => {
    const collection = db.collection<{ _id: string; n: number }>('bulk_chunks');
    await collection.insertMany(Array.from({ length: 250 }, (_, n) => ({ _id: `d${n}`, n })));
    const written = await chunkedBulkWrite(
      collection,
      Array.from({ length: 250 }, (_, n) => ({
        updateOne: { filter: { _id: `d${n}` }, update: { $set: { n: n + 1000 } } },
      })),
    );
    expect(UPDATES_PER_COMMAND).toBeLessThan(100);
    expect(written).toMatchObject({ matchedCount: 250, modifiedCount: 250 });
    expect(await collection.countDocuments({ n: { $gte: 1000 } })).toBe(250);
  });

  it('writes bulk updates of four writers at once (400 statements) without the commands waiting on each other', async () => {
    const collection = db.collection<{ _id: string; n: number; writer: number }>('bulk_writers');
    await collection.insertMany(
      Array.from({ length: 400 }, (_, n) => ({ _id: `d${n}`, n, writer: Math.floor(n / 100) })),
    );
    const written = await Promise.all(
      [0, 1, 2, 3].map((writer) =>
        chunkedBulkWrite(
          collection,
          Array.from({ length: 100 }, (_, i) => ({
            replaceOne: {
              filter: { _id: `d${writer * 100 + i}` },
              replacement: { n: -1, writer },
              upsert: true,
            },
          })),
        ),
      ),
    );
    expect(written.map((counts) => counts.matchedCount)).toEqual([100, 100, 100, 100]);
    expect(await collection.countDocuments({ n: -1 })).toBe(400);
  });

  it('marks 300 events dispatched in one flush of the outbox', async () => {
    const outbox = new EventOutbox(db);
    const createdAt = new Date(Date.now() - 60_000);
    const events: EventDocument[] = Array.from({ length: 300 }, (_, n) => ({
      id: randomUUID(),
      organizationId: 1,
      websiteId: n + 1,
      type: 'website.down',
      createdAt,
      data: {
        website: {
          id: n + 1,
          publicId: `w${n}`,
          name: `Site ${n}`,
          url: 'https://example.com/',
          customerId: 1,
        },
        previousStatus: 'up',
        status: 'down',
        incident: `inc-${n}`,
        result: null,
      },
      deliveredAt: null,
    }));
    await outbox.append(events);
    expect(await outbox.undispatched(new Date(), 1000)).toHaveLength(300);
    for (const event of events) outbox.markDispatched(event.id);
    // Until its mark is written, a repeated dispatch of the event here knows it was dispatched.
    expect(events.every((event) => outbox.dispatchedHere(event.id))).toBe(true);
    await outbox.flush();
    expect(outbox.dispatchedHere(events[0]?.id ?? '')).toBe(false);
    expect(await outbox.undispatched(new Date(), 1000)).toEqual([]);
  });

  it('keeps 150 findings open across a second crawl of a large site', async () => {
    const findings = new SiteFindings(db);
    const owner = { organizationId: 1, customerId: 1, websiteId: 1, monitorId: 7 };
    const at = '2026-11-30T10:00:00.000Z';
    const found: SiteFinding[] = Array.from({ length: 150 }, (_, n) => ({
      type: 'sitemap',
      url: 'https://example.com/sitemap.xml',
      code: 'INVALID_LOC',
      message: `entry ${n + 1}: not a URL`,
      line: n + 2,
      column: 5,
      entry: n + 1,
      firstSeenAt: at,
      lastSeenAt: at,
    }));
    const run = (runId: string) => ({ runId, at: new Date(at), retentionDays: 30 });
    await findings.apply(owner, { opened: found, stillOpen: [], fixed: [], untouched: [] }, run('first'));
    // The second crawl finds them all again: 150 replacements of existing documents.
    const later = '2026-11-30T11:00:00.000Z';
    const again = found.map((finding) => ({ ...finding, lastSeenAt: later }));
    await findings.apply(owner, { opened: [], stillOpen: again, fixed: [], untouched: [] }, run('second'));
    const listed = await findings.list(owner, { state: 'open', limit: 200 });
    expect(listed.total).toBe(150);
    expect(new Set(listed.findings.map(({ finding }) => finding.lastSeenAt))).toEqual(new Set([later]));
  });
});

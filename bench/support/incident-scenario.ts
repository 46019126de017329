import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from 'mongodb';
import { NotificationQueue } from '../../libs/alerts/index.js';
import { DependencyRepository } from '../../libs/dependencies/index.js';
import { type EventDocument, EventOutbox } from '../../libs/events/index.js';
import { MonitorStateRepository, monitorStateSchema } from '../../libs/monitoring/index.js';
import type { Redis } from '../../libs/redis/index.js';
import type { SecretBox } from '../../libs/secrets/index.js';
import {
  defaultCheckConfig,
  WEBSITE_DEFAULTS,
  type WebsiteDocument,
  WebsiteRepository,
} from '../../libs/websites/index.js';
import type { DeliveryReceipts, DeliveryScenario, ExpectedKind, Receipt } from './delivery-receipts.js';
import { seedAgency } from './incident-agency.js';

/**
 * The notifier benchmark's incidents scenario (issue 45): `burst` websites of `customers` customers
 * fail at once, then other websites fail one after another and recover 10 s later, `events` events
 * within `seconds` in all, written to the outbox as the worker writes them. Their alerts pass the
 * dependency gate (10 of the burst's websites are parents of 10 each, whose alerts are held), go to
 * each customer's webhook (every other one with a Liquid template), to a webhook grouping failures
 * by customer within 10 s (templated too), and start the organization's default escalation policy:
 * a channel and a person's verified SMS number (through a Twilio channel whose apiBaseUrl is the
 * receiver), a wait of a minute (30 s: ESCALATION_TIME_SCALE 0.5, so that the burst's second step
 * falls within the minute), then another channel. A recovery stops its escalation before its second
 * step and the person hears of it by SMS.
 */

const WINDOW_MS = 10_000;
const RECOVERY_AFTER_MS = 10_000;
const ESCALATION_TIME_SCALE = 0.5;
const STEP_WAIT_MS = 60_000 * ESCALATION_TIME_SCALE;
const PARENTS = 10;
const CHILDREN_PER_PARENT = 10;
/** Appends going on at once, as several workers' check paths write their transitions' events. */
const WRITERS = 16;
const PUBLIC_URL = 'https://webmon.bench.example';

/** The kinds of delivery the report tells apart. */
const K = {
  plain: 'customer webhook, plain',
  templated: 'customer webhook, template',
  grouped: 'grouped message (from its window’s close)',
  alone: 'grouping channel, down alone',
  groupRecovery: 'grouping channel, recovery',
  step1: 'escalation step 1, channel',
  page: 'escalation step 1, SMS',
  step2: 'escalation step 2, channel (from its due time)',
  recovery: 'recovery SMS to the person paged',
} as const;

type EventType = 'website.down' | 'website.up';
interface Planned {
  /** Milliseconds after the start. */
  at: number;
  type: EventType;
  website: WebsiteDocument;
  incident: string;
}
interface WebhookPayload {
  id: string;
  type: string;
  createdAt: string;
  message?: string;
  data: { group?: Array<{ name?: string }>; website?: { id: number } | null };
}

export interface IncidentOptions {
  db: Db;
  redis: Redis;
  prefix: string;
  box: SecretBox;
  events: number;
  burst: number;
  seconds: number;
  customers: number;
  say(message: string): void;
}

export function incidentScenario(options: IncidentOptions): DeliveryScenario {
  const { db, events, burst, seconds, customers } = options;
  const stream = (events - burst) / 2;
  if (!Number.isInteger(stream) || stream < 1 || burst < PARENTS * (1 + CHILDREN_PER_PARENT))
    throw new Error(`--events - --burst must be even and positive, --burst at least ${PARENTS * 11}`);
  if (seconds * 1000 <= RECOVERY_AFTER_MS) throw new Error('--seconds must be more than 10');
  const held = PARENTS * CHILDREN_PER_PARENT;
  const opened = burst - held + stream;
  let plan: Planned[] = [];
  /** When each website's down and up were written (epoch ms): SMS texts name the website, not the event. */
  const writtenAt = new Map<number, { down?: number; up?: number }>();
  const expected = { plain: 0, templated: 0 };
  /** Websites whose failure the grouping channel is to tell, and those it told (in a grouped message or alone). */
  const toGroup = new Set<number>();
  const toldAtGrouping = new Set<number>();

  async function seed(receiverUrl: string): Promise<void> {
    const now = new Date();
    const { organizationId, customerIds, templatedCustomers } = await seedAgency({
      db,
      box: options.box,
      redis: options.redis,
      prefix: options.prefix,
      customers,
      receiverUrl,
      windowSeconds: WINDOW_MS / 1000,
    });

    const count = burst + stream;
    options.say(`seeding ${count} websites of ${customers} customers…`);
    const websites = new WebsiteRepository(db);
    const ids = await websites.allocateIds(count);
    const documents = ids.map((id, index): WebsiteDocument => {
      const url = `https://site-${id}.bench.example/`;
      return {
        ...WEBSITE_DEFAULTS,
        id,
        publicId: randomUUID(),
        organizationId,
        customerId: customerIds[index % customers] as number,
        name: `Site ${id}`,
        url,
        customHeaders: [],
        regions: [],
        notificationChannelIds: [],
        mtlsClientKey: null,
        checkConfig: defaultCheckConfig(url, () => true),
        scheduledRegions: [],
        createdAt: now,
        updatedAt: now,
      };
    });
    // As POST /api/websites/batch stores them (its lists and lookups), without the API's cost.
    for (let start = 0; start < count; start += 1000)
      await websites.insertMany(organizationId, documents.slice(start, start + 1000));

    plan = [
      ...documents.slice(0, burst).map((website) => ({
        at: 0,
        type: 'website.down' as const,
        website,
        incident: randomUUID(),
      })),
      ...documents.slice(burst).flatMap((website, j) => {
        const at = Math.round((j * (seconds * 1000 - RECOVERY_AFTER_MS)) / stream);
        const incident = randomUUID();
        return [
          { at, type: 'website.down' as const, website, incident },
          { at: at + RECOVERY_AFTER_MS, type: 'website.up' as const, website, incident },
        ];
      }),
    ].sort((a, b) => a.at - b.at);

    // The parents are down (the worker stores a state before its event); their children's alerts are held.
    const dependencies = new DependencyRepository(db);
    const states = new MonitorStateRepository(db, options.redis, options.prefix);
    const heldIds = new Set<number>();
    for (let p = 0; p < PARENTS; p++) {
      const parent = documents[p] as WebsiteDocument;
      for (let k = 0; k < CHILDREN_PER_PARENT; k++) {
        const child = documents[PARENTS + p * CHILDREN_PER_PARENT + k] as WebsiteDocument;
        await dependencies.replace(organizationId, child.id, [{ websiteId: parent.id }]);
        heldIds.add(child.id);
      }
      const incident = plan.find((item) => item.website.id === parent.id)?.incident ?? null;
      await states.writeDurable(
        monitorStateSchema.parse({
          organizationId,
          websiteId: parent.id,
          health: 'down',
          since: now,
          openIncidentId: incident,
        }),
      );
    }
    for (const item of plan) {
      if (heldIds.has(item.website.id)) continue;
      if (item.type === 'website.down') toGroup.add(item.website.id);
      if (templatedCustomers.has(item.website.customerId)) expected.templated += 1;
      else expected.plain += 1;
    }
  }

  const draft = (item: Planned, createdAt: Date): EventDocument => {
    const down = item.type === 'website.down';
    const { website } = item;
    return {
      id: randomUUID(),
      organizationId: website.organizationId,
      websiteId: website.id,
      type: item.type,
      createdAt,
      deliveredAt: null,
      data: {
        website: {
          id: website.id,
          publicId: website.publicId,
          name: website.name,
          url: website.url,
          customerId: website.customerId,
        },
        previousStatus: down ? 'up' : 'down',
        status: down ? 'down' : 'up',
        incident: item.incident,
        incidentUrl: `${PUBLIC_URL}/incidents/${item.incident}`,
        result: {
          region: 'local',
          startedAt: createdAt,
          httpStatus: down ? 503 : 200,
          error: null,
          checks: [
            {
              name: 'Status code',
              outcome: down ? 'fail' : 'pass',
              message: down ? 'HTTP 503, expected 200–399' : 'HTTP 200',
              value: down ? 503 : 200,
            },
          ],
        },
      },
    };
  };

  /** Each event appended (and announced) at its time, by several writers at once. */
  async function write(): Promise<{ events: number; seconds: number }> {
    const queue = new NotificationQueue(options.redis, options.prefix);
    const outbox = new EventOutbox(db, { announce: (eventId, event) => queue.announce(eventId, event) });
    const started = Date.now();
    let next = 0;
    const writer = async () => {
      for (;;) {
        const item = plan[next];
        if (!item) return;
        const wait = started + item.at - Date.now();
        if (wait > 0) {
          await sleep(Math.min(wait, 50));
          continue;
        }
        next += 1;
        const createdAt = new Date();
        const times = writtenAt.get(item.website.id) ?? {};
        times[item.type === 'website.down' ? 'down' : 'up'] = createdAt.getTime();
        writtenAt.set(item.website.id, times);
        await outbox.append([draft(item, createdAt)]);
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, writer));
    await queue.close();
    return { events: plan.length, seconds: (Date.now() - started) / 1000 };
  }

  function classify({ path, body }: { path: string; body: string }): Receipt | null {
    if (path.endsWith('/Messages.json')) {
      const text = new URLSearchParams(body).get('Body') ?? '';
      const websiteId = Number(/Site (\d+)/.exec(text)?.[1]);
      const recovery = text.includes('is up again');
      const from = writtenAt.get(websiteId)?.[recovery ? 'up' : 'down'];
      if (from === undefined) return null;
      return { kind: recovery ? K.recovery : K.page, from, key: String(websiteId) };
    }
    const payload = JSON.parse(body) as WebhookPayload;
    const from = Date.parse(payload.createdAt);
    const key = payload.id;
    if (path.startsWith('/customer/'))
      return { kind: payload.message ? K.templated : K.plain, from, key: `${path}:${key}` };
    if (path === '/grouped') {
      const group = payload.data.group;
      for (const site of group ?? []) toldAtGrouping.add(Number(/Site (\d+)/.exec(site.name ?? '')?.[1]));
      if (!group && payload.type !== 'website.up' && payload.data.website)
        toldAtGrouping.add(payload.data.website.id);
      if (group) return { kind: K.grouped, from: from + WINDOW_MS, key, covers: group.length };
      return { kind: payload.type === 'website.up' ? K.groupRecovery : K.alone, from, key };
    }
    if (path === '/escalation/1') return { kind: K.step1, from, key };
    if (path === '/escalation/2') return { kind: K.step2, from: from + STEP_WAIT_MS, key };
    return null;
  }

  const kinds = (): ExpectedKind[] => [
    { kind: K.plain, expected: expected.plain },
    { kind: K.templated, expected: expected.templated },
    { kind: K.grouped, expected: null },
    { kind: K.alone, expected: null },
    { kind: K.groupRecovery, expected: stream },
    { kind: K.step1, expected: opened },
    { kind: K.page, expected: opened },
    { kind: K.step2, expected: burst - held },
    { kind: K.recovery, expected: null },
  ];

  /** The first websites whose failure the grouping channel never told, if any (to look into). */
  const untold = (): string[] => {
    const missing = [...toGroup].filter((id) => !toldAtGrouping.has(id));
    return missing.length === 0
      ? []
      : [
          `not told at grouping       ${missing.length}: ${missing
            .slice(0, 10)
            .map((id) => `Site ${id}`)
            .join(', ')}`,
        ];
  };

  /** An event's deliveries, their keys and their log, as the diagnosis prints them. */
  const deliveriesOf = async (eventId: string) => {
    const deliveries = await db
      .collection('deliveries')
      .find({ eventId }, { projection: { _id: 1, id: 1, createdAt: 1 } })
      .toArray();
    const keys = deliveries.map((d) => String(d._id));
    const log = await db
      .collection('delivery_log')
      .find(
        { deliveryKey: { $in: keys } },
        { projection: { _id: 0, deliveryKey: 1, kind: 1, settles: 1, at: 1 } },
      )
      .toArray();
    return { deliveries, keys, log };
  };

  /** What the stores say of the first three websites the grouping channel never told. */
  const diagnose = async (): Promise<string[]> => {
    const lines: string[] = [];
    const missing = [...toGroup].filter((id) => !toldAtGrouping.has(id)).slice(0, 3);
    for (const websiteId of missing) {
      const events = await db
        .collection<EventDocument>('events')
        .find({ websiteId }, { projection: { _id: 1, type: 1, createdAt: 1, deliveredAt: 1 } })
        .toArray();
      lines.push(`Site ${websiteId}: events ${JSON.stringify(events)}`);
      for (const event of events.filter((e) => e.type === 'website.down')) {
        const id = String(event._id);
        const { deliveries, keys: deliveryKeys, log } = await deliveriesOf(id);
        const members = await db
          .collection('alert_group_members')
          .find({ 'payload.id': id }, { projection: { _id: 1, at: 1 } })
          .toArray();
        const owed = await db
          .collection('delivery_owed_attempts')
          .find({ _id: { $in: deliveryKeys } } as never)
          .toArray();
        const keys = await options.redis.keys(`${options.prefix}:*${id}*`);
        lines.push(`  down ${id}: deliveries ${JSON.stringify(deliveries)}`);
        lines.push(`  log ${JSON.stringify(log)}`);
        lines.push(
          `  members ${JSON.stringify(members)} owed ${JSON.stringify(owed)} redis ${JSON.stringify(keys)}`,
        );
        const windows = await options.redis.keys(`${options.prefix}:alert-group:*`);
        for (const key of windows.filter((k) => k.endsWith(':members'))) {
          const fields = await options.redis.hkeys(key);
          if (!fields.includes(id)) continue;
          lines.push(`  in window ${key} (${fields.length} members)`);
          // What became of the window's own message: its close mark, its delivery and that one's log.
          const window = /\{(.+)@(\d+)\}/.exec(key);
          if (!window) continue;
          const closed = await options.redis.exists(key.replace(/:members$/, ':closed'));
          const groupedId = `group-${window[1]}-${window[2]}`;
          const { deliveries: sent, log: sentLog } = await deliveriesOf(groupedId);
          const sentKeys = await options.redis.keys(`${options.prefix}:*${groupedId}*`);
          lines.push(
            `  its close mark ${closed}, its message ${groupedId}: deliveries ${JSON.stringify(sent)} log ${JSON.stringify(sentLog)} redis ${JSON.stringify(sentKeys)}`,
          );
        }
      }
    }
    if (missing.length > 0) {
      const windows = await db.collection('alert_groups').find({}).toArray();
      lines.push(`windows still in MongoDB: ${JSON.stringify(windows)}`);
      const kept = await options.redis.keys(`${options.prefix}:alert-window:*`);
      lines.push(`windows kept in Redis: ${JSON.stringify(kept)}`);
      const closed = await options.redis.keys(`${options.prefix}:alert-group:*:closed`);
      lines.push(`windows closed in Redis: ${closed.length}`);
    }
    return lines;
  };

  return {
    diagnose,
    label: `incidents: ${burst} websites of ${customers} customers failing at once, then ${stream} others failing and recovering 10 s later (${events} events in ${seconds} s)`,
    env: { ESCALATION_TIME_SCALE: String(ESCALATION_TIME_SCALE), PUBLIC_URL },
    seed,
    write,
    classify,
    kinds,
    complete: (receipts: DeliveryReceipts) =>
      kinds().every(({ kind, expected: n }) => n === null || receipts.count(kind) >= n) &&
      receipts.covers(K.grouped) + receipts.count(K.alone) >= opened,
    notes: (receipts: DeliveryReceipts) => [
      `alerts held (parent down)  ${held} of ${burst} at once`,
      `grouping channel           ${receipts.covers(K.grouped) + receipts.count(K.alone)} of ${opened} failures told: ${receipts.covers(K.grouped)} in ${receipts.count(K.grouped)} grouped messages, ${receipts.count(K.alone)} alone`,
      `recovery SMS               ${receipts.count(K.recovery)} of ${stream} recoveries (a person hears of one only if paged before it)`,
      ...untold(),
    ],
  };
}

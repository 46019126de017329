import { type CommandStartedEvent, type Document, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserRepository } from '../libs/people/index.js';
import { TestApi } from './support/harness.js';
import { createOrganizationId, createUser } from './support/people.js';

// On FerretDB 1.24 only an exact `{_id: <string>}` filter is answered from the primary key; any
// other scans the collection (docs/architecture.md). Signing in and every request with a session
// cookie must cost the same at 10 users and 100,000, so each of their reads has that filter.
describe('people: the sign-in and session lookups read by primary key only', () => {
  let api: TestApi;
  let monitored: MongoClient;
  let user: { id: number; email: string; organizationId: number };
  const finds: Document[] = [];

  beforeAll(async () => {
    api = await TestApi.start();
    const organizationId = await createOrganizationId(api);
    user = { ...(await createUser(api, organizationId, 'editor')), organizationId };
    monitored = new MongoClient(api.config.MONGODB_URL, { monitorCommands: true });
    monitored.on('commandStarted', (event: CommandStartedEvent) => {
      if (event.commandName === 'find') finds.push(event.command.filter as Document);
    });
    await monitored.connect();
  });
  afterAll(async () => {
    await monitored?.close();
    await api?.stop();
  });

  it.each([
    ['a user by e-mail (sign-in)', () => new UserRepository(monitored.db()).findByEmail(user.email)],
    [
      'an unknown e-mail (sign-in)',
      () => new UserRepository(monitored.db()).findByEmail('nobody@example.com'),
    ],
    [
      'a user by id (each request with a session)',
      () => new UserRepository(monitored.db()).findById(user.organizationId, user.id),
    ],
  ])('%s', async (_what, lookup) => {
    finds.length = 0;
    await lookup();
    expect(finds.length).toBeGreaterThan(0);
    for (const filter of finds) {
      expect(Object.keys(filter)).toEqual(['_id']);
      expect(typeof filter._id).toBe('string');
    }
  });
});

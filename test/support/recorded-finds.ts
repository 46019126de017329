import { type CommandStartedEvent, type Document, MongoClient } from 'mongodb';

/**
 * A client of `url` that appends every `find` command it sends to `finds` (to explain them or
 * count them), and every command to `commands` when given (name and body).
 */
export async function connectRecordingFinds(
  url: string,
  finds: Document[],
  commands?: Array<{ name: string; command: Document }>,
): Promise<MongoClient> {
  const client = new MongoClient(url, { monitorCommands: true });
  client.on('commandStarted', (event: CommandStartedEvent) => {
    if (event.commandName === 'find') finds.push(event.command);
    commands?.push({ name: event.commandName, command: event.command });
  });
  await client.connect();
  return client;
}

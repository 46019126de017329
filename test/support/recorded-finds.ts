import { type CommandStartedEvent, type Document, MongoClient } from 'mongodb';

/** A client of `url` that appends every `find` command it sends to `finds` (to explain them or count them). */
export async function connectRecordingFinds(url: string, finds: Document[]): Promise<MongoClient> {
  const client = new MongoClient(url, { monitorCommands: true });
  client.on('commandStarted', (event: CommandStartedEvent) => {
    if (event.commandName === 'find') finds.push(event.command);
  });
  await client.connect();
  return client;
}

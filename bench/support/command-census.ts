/**
 * Preloaded into a benchmark's child process (`--import ./bench/support/command-census.ts`) with
 * BENCH_COMMAND_CENSUS=<file>: counts every MongoDB command the process sends by its shape
 * (command, collection, the filter's field names; `_id` alone is a primary-key read, which
 * FerretDB 1.24 does not scan) with the time it took, and writes the table to the file at exit.
 * This is how the notifier benchmark finds which requests cost FerretDB most.
 */
import { writeFileSync } from 'node:fs';
import { type CommandStartedEvent, type CommandSucceededEvent, type Document, MongoClient } from 'mongodb';

const target = process.env.BENCH_COMMAND_CENSUS;
const READ_OPTIONS = new Set(['lsid', '$db', '$clusterTime', 'txnNumber', 'readConcern', 'writeConcern']);

function fieldsOf(filter: unknown): string {
  if (!filter || typeof filter !== 'object') return '-';
  return Object.entries(filter as Document)
    .map(([key, value]) =>
      value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)
        ? `${key}:${Object.keys(value as Document).join('|')}`
        : key,
    )
    .sort()
    .join(',');
}

/** The command's shape: its name, collection and what it filters (or updates) on. */
function shapeOf(event: CommandStartedEvent): string {
  const { command, commandName } = event;
  const collection = String(command[commandName] ?? '');
  const parts: string[] = [];
  if (command.filter) parts.push(`filter ${fieldsOf(command.filter)}`);
  if (command.query) parts.push(`query ${fieldsOf(command.query)}`);
  if (Array.isArray(command.updates))
    parts.push(
      `updates×${command.updates.length} q ${fieldsOf(command.updates[0]?.q)}${command.updates[0]?.upsert ? ' upsert' : ''}`,
    );
  if (Array.isArray(command.deletes))
    parts.push(`deletes×${command.deletes.length} q ${fieldsOf(command.deletes[0]?.q)}`);
  if (Array.isArray(command.documents)) parts.push(`documents×${command.documents.length}`);
  if (Array.isArray(command.pipeline)) parts.push(`pipeline ${fieldsOf(command.pipeline[0]?.$match)}`);
  const extra = Object.keys(command).filter(
    (key) =>
      key !== commandName &&
      !READ_OPTIONS.has(key) &&
      !['filter', 'query', 'updates', 'deletes', 'documents', 'pipeline'].includes(key),
  );
  return `${commandName} ${collection} ${parts.join(' ')}${extra.length ? ` [${extra.sort().join(',')}]` : ''}`;
}

if (target) {
  const shapes = new Map<string, { count: number; ms: number }>();
  const pending = new Map<number, string>();
  const connect = MongoClient.prototype.connect;
  MongoClient.prototype.connect = function connectCounting(this: MongoClient) {
    // Public as a client option only; its (internal) setter works before the client connects.
    (this as unknown as { monitorCommands: boolean }).monitorCommands = true;
    this.on('commandStarted', (event: CommandStartedEvent) => pending.set(event.requestId, shapeOf(event)));
    const finished = (event: CommandSucceededEvent) => {
      const shape = pending.get(event.requestId);
      if (shape === undefined) return;
      pending.delete(event.requestId);
      const entry = shapes.get(shape) ?? { count: 0, ms: 0 };
      entry.count += 1;
      entry.ms += event.duration;
      shapes.set(shape, entry);
    };
    this.on('commandSucceeded', finished);
    this.on('commandFailed', finished as never);
    return connect.call(this);
  } as typeof connect;
  process.once('exit', () => {
    const rows = [...shapes].sort((a, b) => b[1].ms - a[1].ms);
    writeFileSync(
      target,
      `${'ms'.padStart(10)}${'count'.padStart(8)}${'ms each'.padStart(9)}  command\n${rows
        .map(
          ([shape, { count, ms }]) =>
            `${ms.toFixed(0).padStart(10)}${String(count).padStart(8)}${(ms / count).toFixed(1).padStart(9)}  ${shape}`,
        )
        .join('\n')}\n`,
    );
  });
}

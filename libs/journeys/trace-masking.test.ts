import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptTrace } from './trace-masking.js';

const MiB = 1024 * 1024;

describe('keptTrace', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'trace-masking-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('keeps a trace within its bound, each secret blanked', async () => {
    const path = join(folder, 'small.zip');
    await writeFile(path, zipSync({ 'trace.trace': strToU8('{"fill":"hunter2-secret"}') }));
    const kept = await keptTrace(path, ['hunter2-secret'], MiB);
    if (!('trace' in kept)) throw new Error(`not kept: ${kept.notKept}`);
    const entries = unzipSync(kept.trace);
    expect(Buffer.from(entries['trace.trace'] as Uint8Array).toString()).toBe('{"fill":"[redacted]"}');
  });

  it('names a trace over its bound without reading it', async () => {
    // Not a zip: read and masked, it would fail to open rather than be named.
    const path = join(folder, 'big.zip');
    await writeFile(path, Buffer.alloc(3 * MiB + 1, 1));
    expect(await keptTrace(path, ['hunter2-secret'], 2 * MiB)).toEqual({
      notKept: 'trace (3 MiB, over 2 MiB)',
    });
  });
});

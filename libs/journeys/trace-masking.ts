import { readFile, stat } from 'node:fs/promises';
import { unzipSync, zipSync } from 'fflate';
import { maskSecrets } from './placeholders.js';

/** An entry is text when it decodes as UTF-8 and holds no NUL (images and fonts are left as they are). */
const utf8 = new TextDecoder('utf-8', { fatal: true });

function textOf(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * A Playwright trace (a zip) with every secret blanked in each of its text entries: the actions'
 * parameters (a `fill` records its value), the network log (headers, bodies), the DOM snapshots
 * (an input's value). The trace is recorded without screencast frames, so no image shows what
 * was typed either. `npx playwright show-trace` opens it as before.
 */
export function maskedTrace(zip: Uint8Array, masks: readonly string[]): Buffer {
  if (masks.length === 0) return Buffer.from(zip);
  const entries = unzipSync(zip);
  const encoder = new TextEncoder();
  for (const [name, bytes] of Object.entries(entries)) {
    const text = textOf(bytes);
    if (text === null) continue;
    const masked = maskSecrets(text, masks);
    if (masked !== text) entries[name] = encoder.encode(masked);
  }
  return Buffer.from(zipSync(entries, { level: 6 }));
}

/** A trace as a run keeps it, or why it does not (in the words of the run's `notKept`). */
export type KeptTrace = { trace: Buffer } | { notKept: string };

/**
 * The trace file at `path`, masked (`maskedTrace`), if it is `maxBytes` at most before masking and
 * after; a file over it is not read at all, so a huge trace never sits in the worker's memory.
 */
export async function keptTrace(
  path: string,
  masks: readonly string[],
  maxBytes: number,
): Promise<KeptTrace> {
  const over = (bytes: number) => ({
    notKept: `trace (${Math.round(bytes / 1024 / 1024)} MiB, over ${maxBytes / 1024 / 1024} MiB)`,
  });
  const { size } = await stat(path);
  if (size > maxBytes) return over(size);
  const trace = maskedTrace(await readFile(path), masks);
  return trace.length <= maxBytes ? { trace } : over(trace.length);
}

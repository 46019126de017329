import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

export interface BodyRead {
  body: Buffer;
  /** Decoded bytes seen; when truncated, the cap (there were more). */
  sizeBytes: number;
  truncated: boolean;
}

function decoderFor(encoding: string | undefined) {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return null;
  }
}

/**
 * Reads the decoded body up to `maxBytes` and stops there (the rest is never downloaded), so
 * a huge page cannot exhaust the worker's memory. Size and keyword checks see decoded bytes.
 */
export async function readDecodedBody(
  raw: Readable,
  contentEncoding: string | undefined,
  maxBytes: number,
): Promise<BodyRead> {
  const decoder = decoderFor(contentEncoding);
  const stream: Readable = decoder ? raw.pipe(decoder) : raw;
  if (decoder) raw.once('error', (error) => decoder.destroy(error));
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of stream) {
      const buffer = chunk as Buffer;
      if (size + buffer.length > maxBytes) {
        chunks.push(buffer.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(buffer);
      size += buffer.length;
    }
  } finally {
    if (truncated) {
      stream.destroy();
      raw.destroy();
    }
  }
  return { body: Buffer.concat(chunks), sizeBytes: size, truncated };
}

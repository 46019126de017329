import { describe, expect, it } from 'vitest';
import { boundedReport } from './bounded-report.js';

const MiB = 1024 * 1024;

describe('boundedReport', () => {
  it('keeps a report within its bound whole, without making it again', () => {
    const html = '<!doctype html><title>Lighthouse Report</title>é';
    expect(
      boundedReport(
        html,
        () => {
          throw new Error('not needed');
        },
        MiB,
      ),
    ).toEqual({ html, bytes: Buffer.byteLength(html), note: null });
  });

  it('leaves the full-page screenshot out of a report over its bound, and says so', () => {
    const lighter = 'x'.repeat(MiB);
    expect(boundedReport('x'.repeat(3 * MiB), () => lighter, 2 * MiB)).toEqual({
      html: lighter,
      bytes: MiB,
      note: 'the full-page screenshot was left out: the report was 3.0 MiB, over its 2.0 MiB bound',
    });
  });

  it('keeps none when even the lighter report is over, and says so', () => {
    expect(boundedReport('x'.repeat(3 * MiB), () => 'x'.repeat(2.5 * MiB), 2 * MiB)).toEqual({
      html: null,
      bytes: 2.5 * MiB,
      note: 'not kept: 2.5 MiB even without the full-page screenshot, over its 2.0 MiB bound',
    });
  });
});

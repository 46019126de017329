/** A run's Lighthouse HTML report as kept: whole, lightened to fit its bound, or not at all. */
export interface LighthouseReport {
  /** Lighthouse's own self-contained HTML report; null: over the bound even lightened. */
  html: string | null;
  /** Its size in bytes (UTF-8), or the lightened one's when neither was kept. */
  bytes: number;
  /** What was left out and why, in words; null: the report is whole. */
  note: string | null;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/**
 * `html` when it fits `maxBytes`; else the report made again without the full-page screenshot
 * (`withoutScreenshot`: on a long page it is most of the report), when that fits; else none, each
 * case said in `note`.
 */
export function boundedReport(
  html: string,
  withoutScreenshot: () => string,
  maxBytes: number,
): LighthouseReport {
  const bytes = Buffer.byteLength(html);
  if (bytes <= maxBytes) return { html, bytes, note: null };
  const lighter = withoutScreenshot();
  const lighterBytes = Buffer.byteLength(lighter);
  if (lighterBytes <= maxBytes)
    return {
      html: lighter,
      bytes: lighterBytes,
      note: `the full-page screenshot was left out: the report was ${mib(bytes)}, over its ${mib(maxBytes)} bound`,
    };
  return {
    html: null,
    bytes: lighterBytes,
    note: `not kept: ${mib(lighterBytes)} even without the full-page screenshot, over its ${mib(maxBytes)} bound`,
  };
}

import { query } from 'jsonpath-rfc9535';
import { RE2JS } from 're2js';
import type { ApiFlowExtraction } from './api-flow.schema.js';

/** A value longer than this is refused: it goes into later requests' URLs and headers. */
export const MAX_EXTRACTED_CHARS = 8192;
/** Bodies longer than this are not parsed as JSON (assertions' bound too). */
const MAX_JSON_CHARS = 2 * 1024 * 1024;
/** A pattern looks at this much of the body, as assertions' `matches` does: RE2 is linear, this bounds the time. */
const MATCHED_CHARS = 64 * 1024;

/** The answer a step's extractions read: headers lower-cased, the body decoded as read (null: none). */
export interface ExtractedFrom {
  headers: Record<string, string>;
  body: string | null;
  bodyTruncated: boolean;
}

/** What one extraction found: its value, or why there is none, in words. */
export type Extracted = { name: string; value: string } | { name: string; problem: string };

/** What an extraction reads, in words: `$.token`, `header x-csrf-token`, `/id=(\d+)/`. */
export function extractionSubject(extraction: ApiFlowExtraction): string {
  if (extraction.from === 'jsonBody') return extraction.path;
  if (extraction.from === 'header') return `header ${extraction.header.toLowerCase()}`;
  return `/${extraction.pattern}/`;
}

const asText = (node: unknown) => (typeof node === 'string' ? node : JSON.stringify(node));

/**
 * Each extraction of a step over its answer, in order (pure): the body parsed as JSON once, a
 * header by its name, a pattern's first capture group (or its whole match) over the body's start.
 */
export function extractValues(extractions: readonly ApiFlowExtraction[], answer: ExtractedFrom): Extracted[] {
  let json: { document: unknown } | { problem: string } | undefined;
  const parsed = () => {
    json ??= (() => {
      if (answer.body === null) return { problem: 'there is no body' };
      if (answer.bodyTruncated || answer.body.length > MAX_JSON_CHARS)
        return { problem: 'the body is too large to read as JSON' };
      try {
        return { document: JSON.parse(answer.body) as unknown };
      } catch {
        return { problem: 'the body is not JSON' };
      }
    })();
    return json;
  };
  return extractions.map((extraction): Extracted => {
    const { name } = extraction;
    const subject = extractionSubject(extraction);
    let value: string | null;
    if (extraction.from === 'jsonBody') {
      const document = parsed();
      if ('problem' in document) return { name, problem: `${subject}: ${document.problem}` };
      const [first] = query(document.document as Parameters<typeof query>[0], extraction.path);
      if (first === undefined) return { name, problem: `${subject} not found in the JSON body` };
      value = asText(first);
    } else if (extraction.from === 'header') {
      value = answer.headers[extraction.header.toLowerCase()] ?? null;
      if (value === null) return { name, problem: `${subject} not found in the answer` };
    } else {
      if (answer.body === null) return { name, problem: `${subject}: there is no body` };
      const matcher = RE2JS.compile(extraction.pattern).matcher(answer.body.slice(0, MATCHED_CHARS));
      if (!matcher.find()) return { name, problem: `${subject} matched nothing in the body` };
      value = (matcher.groupCount() > 0 ? matcher.group(1) : matcher.group()) ?? '';
    }
    if (value.length > MAX_EXTRACTED_CHARS)
      return { name, problem: `${subject} is longer than ${MAX_EXTRACTED_CHARS} characters` };
    return { name, value };
  });
}

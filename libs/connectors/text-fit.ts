/**
 * Fitting a message into a tool's length limit: cut with an ellipsis, never inside an escape or a
 * link the tool's markup needs whole, never between the halves of a surrogate pair.
 */

export const ELLIPSIS = '…';

/** How a tool counts a message's size: UTF-16 code units by default (never fewer than characters). */
export type Measure = (text: string) => number;
const codeUnits: Measure = (text) => text.length;
/** For limits in bytes (ntfy, Matrix). */
export const utf8Bytes: Measure = (text) => Buffer.byteLength(text, 'utf8');

const identity = (text: string) => text;

/** A prefix of `text` of at most `units` code units that does not end inside a surrogate pair. */
function prefix(text: string, units: number): string {
  const code = text.charCodeAt(units - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? units - 1 : units);
}

/**
 * `plain` escaped for the tool's markup, within `max`: when it does not fit, the longest start of
 * the plain text whose escaped form fits with an ellipsis after it (escapes are never split).
 */
export function fitEscaped(
  plain: string,
  max: number,
  markup: (text: string) => string = identity,
  measure: Measure = codeUnits,
): string {
  const whole = markup(plain);
  if (measure(whole) <= max) return whole;
  const room = max - measure(ELLIPSIS);
  if (room < 0) return '';
  // Binary search on the plain text's length: an escaped prefix only grows with it.
  let low = 0;
  let high = plain.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (measure(markup(prefix(plain, middle))) <= room) low = middle;
    else high = middle - 1;
  }
  return `${markup(prefix(plain, low))}${ELLIPSIS}`;
}

/** Plain text within `max` code units, cut with an ellipsis. */
export const cut = (text: string, max: number): string => fitEscaped(text, max);

/** A part of a message: markup kept whole (a link), or plain text escaped and cut as needed. */
export type Segment = string | { plain: string; escape?: (text: string) => string };

/**
 * The segments joined by `separator` within `max`. Markup segments are kept whole; the plain ones
 * share what room is left, the short ones whole and the long ones (a reason of many checks, a
 * template's output) cut. Markup that alone overflows (it cannot be cut) is left out from the end.
 */
export function fitSegments(
  segments: readonly Segment[],
  max: number,
  separator = '\n',
  measure: Measure = codeUnits,
): string {
  const rendered = segments.map((segment) =>
    typeof segment === 'string' ? segment : (segment.escape ?? identity)(segment.plain),
  );
  const joined = rendered.join(separator);
  if (measure(joined) <= max) return joined;
  const fixed = segments.reduce(
    (total, segment, index) => (typeof segment === 'string' ? total + measure(rendered[index] ?? '') : total),
    measure(separator) * Math.max(0, segments.length - 1),
  );
  if (fixed > max) {
    const last = segments.findLastIndex((segment) => typeof segment === 'string');
    if (last < 0) return '';
    return fitSegments(
      segments.filter((_, index) => index !== last),
      max,
      separator,
      measure,
    );
  }
  // Water-filling: each plain segment, shortest first, gets an equal share of what is left.
  const flexible = segments
    .map((segment, index) => ({ segment, index, size: measure(rendered[index] ?? '') }))
    .filter((entry) => typeof entry.segment !== 'string')
    .sort((a, b) => a.size - b.size);
  let room = max - fixed;
  flexible.forEach(({ segment, index, size }, order) => {
    const share = Math.floor(room / (flexible.length - order));
    if (size > share && typeof segment !== 'string')
      rendered[index] = fitEscaped(segment.plain, share, segment.escape, measure);
    room -= measure(rendered[index] ?? '');
  });
  return rendered.join(separator);
}

/**
 * The keys Playwright's `press` knows (its US keyboard layout, playwright-core's `USKeyboardLayout`):
 * any other name fails with "Unknown key" when the step runs, so it is refused when written.
 */
const NAMED_KEYS = new Set([
  'Escape',
  ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
  'Backquote',
  ...Array.from({ length: 10 }, (_, i) => `Digit${i}`),
  'Minus',
  'Equal',
  'Backslash',
  'Backspace',
  'Tab',
  ...Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZ', (letter) => `Key${letter}`),
  'BracketLeft',
  'BracketRight',
  'CapsLock',
  'Semicolon',
  'Quote',
  'Enter',
  'Comma',
  'Period',
  'Slash',
  'Space',
  'Shift',
  'ShiftLeft',
  'ShiftRight',
  'Control',
  'ControlLeft',
  'ControlRight',
  'Alt',
  'AltLeft',
  'AltRight',
  'AltGraph',
  'Meta',
  'MetaLeft',
  'MetaRight',
  // Control on Linux and Windows, Meta on macOS.
  'ControlOrMeta',
  'ContextMenu',
  'PrintScreen',
  'ScrollLock',
  'Pause',
  'PageUp',
  'PageDown',
  'Insert',
  'Delete',
  'Home',
  'End',
  'ArrowLeft',
  'ArrowUp',
  'ArrowRight',
  'ArrowDown',
  'AudioVolumeMute',
  'AudioVolumeDown',
  'AudioVolumeUp',
  'MediaTrackNext',
  'MediaTrackPrevious',
  'MediaPlayPause',
  'NumLock',
  'NumpadDivide',
  'NumpadMultiply',
  'NumpadSubtract',
  'NumpadAdd',
  'NumpadDecimal',
  'NumpadEnter',
  ...Array.from({ length: 10 }, (_, i) => `Numpad${i}`),
]);

/** One character the US layout types (a letter, a digit, a symbol or a space). */
const LAYOUT_CHARACTER = /^[\x20-\x7e]$/;

const isKey = (token: string) => NAMED_KEYS.has(token) || LAYOUT_CHARACTER.test(token);

/** A press's keys as Playwright splits them: on "+", except a "+" that is a key itself ("Shift++"). */
function keysOf(press: string): string[] {
  const keys: string[] = [];
  let building = '';
  for (const character of press) {
    if (character === '+' && building) {
      keys.push(building);
      building = '';
    } else building += character;
  }
  keys.push(building);
  return keys;
}

/** Why `press` (a key or a chord such as Control+A) is not one Playwright presses, or null. */
export function keyProblem(press: string): string | null {
  const unknown = keysOf(press).filter((key) => !isKey(key));
  if (unknown.length === 0) return null;
  return `Must be a key such as Enter, Tab, ArrowDown, a or Control+A (${unknown.map((key) => JSON.stringify(key)).join(', ')} is not one)`;
}

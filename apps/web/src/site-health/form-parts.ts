/** A text box's lines as a list: blank lines and the spaces around each dropped. */
export function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/**
 * The error for a list typed one item a line (`ignore`, `extraHosts`, `urls`): the list's own, or
 * an item's (`ignore.2`) told by its line, so the person finds which.
 */
export function errorUnder(errors: Record<string, string>, name: string): string | undefined {
  if (errors[name]) return errors[name];
  for (const [path, message] of Object.entries(errors)) {
    const item = new RegExp(`^${name}\\.(\\d+)`).exec(path);
    if (item) return `Line ${Number(item[1]) + 1}: ${message}`;
  }
  return undefined;
}

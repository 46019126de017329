/**
 * `npm run check`'s structure rule: HTTP stays at the edge. A library outside `libs/http` imports
 * neither `libs/http` nor Koa, and no `*.routes.ts` lives in a domain library (routes are the
 * API's, in `apps/api/routes/`). Prints each breach and exits 1; silent when there is none.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const LIBS = join(root, 'libs');
const HTTP = join(LIBS, 'http');

/** Import and export specifiers, static and dynamic. */
const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;
const KOA = /^(koa|koa-[^/]+|@koa\/[^/]+)(\/|$)/;

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

const inside = (file: string, dir: string) => file === dir || file.startsWith(`${dir}${sep}`);

function breachOf(file: string, specifier: string): string | null {
  if (KOA.test(specifier)) return `imports ${specifier}`;
  if (specifier.startsWith('.') && inside(resolve(dirname(file), specifier), HTTP))
    return `imports libs/http (${specifier})`;
  return null;
}

const breaches: string[] = [];
for (const file of await sourceFiles(LIBS)) {
  if (inside(file, HTTP)) continue;
  const name = relative(root, file);
  if (file.endsWith('.routes.ts'))
    breaches.push(`${name}: a route module in a library (move it to apps/api/routes)`);
  const text = await readFile(file, 'utf8');
  for (const [, specifier] of text.matchAll(SPECIFIERS)) {
    const breach = specifier === undefined ? null : breachOf(file, specifier);
    if (breach) breaches.push(`${name}: ${breach}`);
  }
}
if (breaches.length > 0) {
  process.stderr.write(
    `HTTP belongs at the edge (apps/api, libs/http); domain code throws DomainError:\n${breaches.map((b) => `  ${b}`).join('\n')}\n`,
  );
  process.exit(1);
}

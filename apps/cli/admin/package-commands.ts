import { validate } from '../../../libs/contract/index.js';
import { createPackageBody, PackageRepository, toPackageView } from '../../../libs/packages/index.js';
import { type CommandLine, print, required, UsageError } from './command-line.js';
import type { AdminCommand } from './context.js';

/** The package body from the flags, validated like `POST /api/packages`. */
function packageBodyFrom(values: CommandLine['values']) {
  let settings: Record<string, unknown> = {};
  if (values.settings !== undefined) {
    let parsedJson: unknown;
    try {
      parsedJson = JSON.parse(values.settings);
    } catch {
      throw new UsageError('--settings: is not valid JSON');
    }
    if (typeof parsedJson !== 'object' || parsedJson === null || Array.isArray(parsedJson))
      throw new UsageError('--settings: must be a JSON object');
    settings = parsedJson as Record<string, unknown>;
    if ('key' in settings || 'displayName' in settings)
      throw new UsageError('--settings: give key and displayName with --key and --display-name');
  }
  const parsed = validate(createPackageBody, {
    ...settings,
    key: required(values.key, '--key'),
    displayName: required(values['display-name'], '--display-name'),
  });
  if (!parsed.success)
    throw new UsageError(
      parsed.errors
        .map(({ path, message }) => `${path === 'displayName' ? 'display-name' : path}: ${message}`)
        .join('; '),
    );
  return parsed.data;
}

/** Packages: made (validated like `POST /api/packages`) and listed. */
export const packageCommands: Record<string, AdminCommand> = {
  'create-package': async ({ db, values, requireOrganization }) => {
    const id = await requireOrganization(values.org);
    const body = packageBodyFrom(values);
    const packages = new PackageRepository(db);
    if (await packages.findByKey(id, body.key))
      throw new Error(`organization ${id} already has a package with key "${body.key}"`);
    print(toPackageView(await packages.create({ organizationId: id, ...body })));
  },
  'list-packages': async ({ db, values, requireOrganization }) => {
    const id = await requireOrganization(values.org);
    for (const found of await new PackageRepository(db).list(id)) print(toPackageView(found));
  },
};

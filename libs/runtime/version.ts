import packageJson from '../../package.json' with { type: 'json' };

/** The product's version, as released. */
export const SERVICE_VERSION: string = packageJson.version;

/** What the file describes, in the order things are made (each may name those before it). */
export const RESOURCE_KINDS = [
  'package',
  'customer',
  'channel',
  'website',
  'maintenanceWindow',
  'monitor',
  'statusPage',
] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** A reference in a body to a thing known by its key, replaced by its id when the plan is carried out. */
export interface Reference {
  $ref: ResourceKind;
  key: string;
  /** In a list: left out when its thing was not made (instead of failing what lists it). */
  optional?: true;
}

export const reference = ($ref: ResourceKind, key: string): Reference => ({ $ref, key });

/** A list member's reference that is dropped, not failed, when its thing was not made. */
export const optional = (value: number | Reference): number | Reference =>
  typeof value === 'number' ? value : { ...value, optional: true };

export const isReference = (value: unknown): value is Reference =>
  typeof value === 'object' &&
  value !== null &&
  '$ref' in value &&
  typeof (value as { $ref: unknown }).$ref === 'string';

/** A URL as a key: the scheme and host as URL writes them (lowercase), no fragment. */
export function urlKey(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.toString();
  } catch {
    return url.trim();
  }
}

/** A website is known by its method and URL within its customer (a GET and a POST of one endpoint are two). */
export const websiteKey = (customerName: string, method: string, url: string) =>
  `${customerName.trim()} ${method === 'GET' ? '' : `${method} `}${urlKey(url)}`;
/** A maintenance window is known by its title within its website. */
export const windowKey = (ofWebsite: string, title: string) => `${ofWebsite} ${title.trim()}`;
/** A monitor (heartbeat, DNS, port or probe check) is known by its name within its website. */
export const monitorKey = (ofWebsite: string, name: string) => `${ofWebsite} ${name.trim()}`;

/** The ids known so far by kind and key: the organization's, then each thing made. */
export class KnownIds {
  private readonly ids = new Map<string, number>();

  set(kind: ResourceKind, key: string, id: number): void {
    this.ids.set(`${kind}\n${key}`, id);
  }

  get(kind: ResourceKind, key: string): number | undefined {
    return this.ids.get(`${kind}\n${key}`);
  }

  /** A reference's id, or the reference itself when its thing is yet to be made. */
  resolve(ref: Reference): number | Reference {
    return this.get(ref.$ref, ref.key) ?? ref;
  }
}

import { z } from 'zod';

/**
 * The decimal-string integers of paths and query strings, with their bounds: the OpenAPI document
 * shows them as what they mean (`type: integer`), not as the strings they arrive as, so that
 * generated clients take and send integers.
 */
export const decimalIntegers = z.registry<{ minimum: number; maximum: number }>();

/**
 * A whole number in a path or query string, written in decimal digits only: `Number()` would also
 * read `0x10`, `1e3`, `0b1` and ` 7 `, so one resource would answer to many spellings.
 */
export function decimalInteger(options: { min: number; max?: number }) {
  const maximum = options.max ?? Number.MAX_SAFE_INTEGER;
  const schema = z
    .string()
    // 16 digits: the bound is MAX_SAFE_INTEGER (9007199254740991), which the OpenAPI document states.
    .regex(/^[0-9]{1,16}$/, 'must be a whole number written in decimal digits')
    .transform(Number)
    .pipe(z.number().int().min(options.min).max(maximum));
  decimalIntegers.add(schema, { minimum: options.min, maximum });
  return schema;
}

/** An integer resource id (1 or more) in a path or query string. */
export const decimalId = () => decimalInteger({ min: 1 });

/** `/:id` of a resource with an integer id. */
export const idParams = z.object({ id: decimalId() });

/** An integer resource id (1 or more) in a JSON body. */
export const resourceId = () => z.number().int().min(1);

/**
 * An array that refuses repeated items, documented as `uniqueItems`; the error names the array
 * and the first repeat (`scopes`: "items must be unique: item 1 repeats item 0").
 */
export function uniqueArray<T extends z.ZodType>(item: T) {
  return z
    .array(item)
    .superRefine((items, ctx) => {
      const firstIndex = new Map<unknown, number>();
      for (const [index, value] of items.entries()) {
        const first = firstIndex.get(value);
        if (first !== undefined) {
          ctx.addIssue({
            code: 'custom',
            message: `items must be unique: item ${index} repeats item ${first}`,
          });
          return;
        }
        firstIndex.set(value, index);
      }
    })
    .meta({ uniqueItems: true });
}

import { z } from 'zod';

/**
 * A whole number in a path or query string, written in decimal digits only: `Number()` would also
 * read `0x10`, `1e3`, `0b1` and ` 7 `, so one resource would answer to many spellings.
 */
export function decimalInteger(options: { min: number; max?: number }) {
  return z
    .string()
    .regex(/^[0-9]{1,15}$/, 'must be a whole number written in decimal digits')
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(options.min)
        .max(options.max ?? Number.MAX_SAFE_INTEGER),
    );
}

/** An integer resource id (1 or more) in a path or query string. */
export const decimalId = () => decimalInteger({ min: 1 });

/** `/:id` of a resource with an integer id. */
export const idParams = z.object({ id: decimalId() });

import { z } from 'zod';

/** Pieces many endpoints share. */

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A member's id in an answer. */
export const userId = z
  .string()
  .meta({ format: 'uuid', examples: ['0b9f3c1e-5d2a-4c77-9a51-3f0e8d2b6a14'] });

/**
 * A point in time on the wire: ISO 8601 with its offset. Branded in the types only, so that
 * the server may build it from a Date (Served) while every other string stays a string.
 */
export const timestamp = z
  .string()
  .brand<'Timestamp'>()
  .meta({ format: 'date-time', examples: ['2026-11-25T09:30:00.000Z'] });

export type Timestamp = z.output<typeof timestamp>;

/** The body field every sensitive change accepts; required for accounts with a password. */
export const currentPasswordField = {
  current_password: z
    .string()
    .max(1000)
    .optional()
    .meta({ description: 'Fresh proof: the current password (docs/accounts.md).' }),
};

/** A member's name as lists show it. */
export const memberName = z
  .object({ userId, lastName: z.string(), firstName: z.string() })
  .meta({ id: 'MemberName' });

/**
 * The query of a paged list: how many items (1–100, 24 by default) and the `nextCursor` of
 * the page before, opaque to the client.
 */
export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(24),
  cursor: z.string().max(2000).optional(),
});

/** A page of a list: its items and the cursor of the next page, null on the last. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });

/**
 * The trust store file's shape, for zod. Kept out of src/trust/store.ts so that reading an
 * accepted store loads no zod: the compiled validator `trustStore` (scripts/gen-validators.mjs,
 * derived from this schema) accepts first, and this module is loaded only to decide and word
 * what it rejects.
 */
import { z } from 'zod';

const recordSchema = z.object({
  path: z.string(),
  workspaceTrustedAt: z.string(),
  hooks: z
    .object({
      digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
      trustedAt: z.string(),
      config: z.looseObject({
        version: z.literal(1),
        hooks: z.array(z.looseObject({ source: z.looseObject({ path: z.string() }), scripts: z.array(z.string()) })),
        settings: z.array(z.looseObject({ file: z.string(), settings: z.record(z.string(), z.unknown()) })),
        scripts: z.record(z.string(), z.string()),
      }),
    })
    .optional(),
});

const storeSchema = z.object({ version: z.number().int(), workspaces: z.record(z.string(), recordSchema) });

export function trustStoreSchema(): typeof storeSchema {
  return storeSchema;
}

/** Loading the zod schemas on demand, apart from the slot (src/util/zod-slot.ts) so no import cycle forms. */
import { configZodSchemas, eventZodSchemas, mcpServerSchemaLoaded } from './zod-slot.js';

/** Loads every schema module (once; later calls resolve at once). */
export async function loadZodSchemas(): Promise<void> {
  if (!eventZodSchemas() || !configZodSchemas() || !mcpServerSchemaLoaded()) await import('./zod-schemas.js');
}

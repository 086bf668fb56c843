/**
 * The tables of src/events/tables.generated.ts, computed from the zod schemas: the lean paths
 * read the generated copy and never load zod for them. `npm run gen:tables` writes it;
 * test/events/tables.test.ts fails when it differs from what the schemas give.
 */
import type { z } from 'zod';
import { EVENT_NAMES, type EventName } from './facts.js';
import { catalog, inputSchema, outputSchema } from './schemas.js';
import type { EventSpec } from './spec.js';
import { sampleFromSchema } from '../toolkit/sample.js';

export interface EventTables {
  /** Required input fields (common ones included) and the neutral value dispatch fills a missing one with. */
  fillers: Record<EventName, Record<string, unknown>>;
  /** hookSpecificOutput keys of each event, with the keys of those that are objects themselves. */
  specificOutput: Record<EventName, Record<string, readonly string[] | null>>;
  /** Top-level keys of the output schema (the same for every event). */
  topLevelOutput: readonly string[];
  /** Keys of each event's own input fields (the common ones not included). */
  inputKeys: Record<EventName, readonly string[]>;
  /** The required event-specific input fields with plausible values (src/toolkit/sample.ts). */
  sampleInput: Record<EventName, Record<string, unknown>>;
}

/** Tried in order: the first value a required field's schema accepts fills it. */
const FILLERS: unknown[] = ['', false, 0, [], {}];

/** Filled per execution by the engine, so never by dispatch. */
const ENGINE_FIELDS = new Set(['hook_event_name', 'hook_execution_id', 'timestamp']);

/** The object schema inside an optional (one level), or undefined. */
export function objectInside(schema: z.ZodType): z.ZodObject | undefined {
  let s = schema as z.ZodType & { def: { type: string; innerType?: z.ZodType } };
  if (s.def.type === 'optional' && s.def.innerType) s = s.def.innerType as typeof s;
  return s.def.type === 'object' ? (s as unknown as z.ZodObject) : undefined;
}

export function deriveEventTables(): EventTables {
  const fillers = {} as EventTables['fillers'];
  const specificOutput = {} as EventTables['specificOutput'];
  const inputKeys = {} as EventTables['inputKeys'];
  const sampleInput = {} as EventTables['sampleInput'];
  for (const event of EVENT_NAMES) {
    const own = ((catalog[event] as EventSpec).input as z.ZodObject).shape as Record<string, z.ZodType>;
    inputKeys[event] = Object.keys(own);
    sampleInput[event] = sampleFromSchema(own);
    const f: Record<string, unknown> = {};
    for (const [key, field] of Object.entries((inputSchema(event) as z.ZodObject).shape as Record<string, z.ZodType>)) {
      if (ENGINE_FIELDS.has(key) || field.safeParse(undefined).success) continue;
      const filler = FILLERS.find((v) => field.safeParse(v).success);
      if (filler !== undefined) f[key] = filler;
    }
    fillers[event] = f;
    const shape = ((catalog[event] as EventSpec).output as z.ZodObject).shape as Record<string, z.ZodType>;
    specificOutput[event] = Object.fromEntries(
      Object.entries(shape).map(([key, schema]) => {
        const obj = objectInside(schema);
        return [key, obj ? Object.keys(obj.shape) : null];
      }),
    );
  }
  return {
    fillers,
    specificOutput,
    inputKeys,
    sampleInput,
    topLevelOutput: Object.keys((outputSchema('PreToolUse') as z.ZodObject).shape),
  };
}

/**
 * The strict output schema of an event: exactly the honoured fields (src/events/honoured.ts).
 * The SDK validates hook output against it; apart from honoured.ts because it needs zod.
 */
import { z } from 'zod';
import type { EventName } from './facts.js';
import { outputFields } from './honoured.js';
import { objectInside } from './derive.js';
import { catalog, outputSchema } from './schemas.js';
import type { EventSpec } from './spec.js';

function specificShape(event: EventName): Record<string, z.ZodType> {
  return ((catalog[event] as EventSpec).output as z.ZodObject).shape as Record<string, z.ZodType>;
}

const strictCache = new Map<EventName, z.ZodType>();

/**
 * The event's output schema with only honoured fields, strict at the top level, in
 * hookSpecificOutput and in its object fields (PermissionRequest's decision): a misspelled or
 * ignored field is an error naming it. Deeper values (updatedInput, updatedPermissions
 * entries) keep the catalog's loose shapes, since agents add fields there.
 */
export function strictOutputSchema(event: EventName): z.ZodType {
  let schema = strictCache.get(event);
  if (schema) return schema;
  const loose = (outputSchema(event) as z.ZodObject).shape as Record<string, z.ZodType>;
  const fields = outputFields(event);
  const shape: Record<string, z.ZodType> = {};
  for (const key of fields.top) {
    if (key === 'hookSpecificOutput') continue;
    const s = loose[key];
    if (s) shape[key] = s;
  }
  if (fields.specific.size > 0) {
    const specific: Record<string, z.ZodType> = { hookEventName: z.literal(event) };
    for (const [key, s] of Object.entries(specificShape(event))) {
      const obj = objectInside(s);
      specific[key] = obj ? z.strictObject(obj.shape).optional() : s;
    }
    shape.hookSpecificOutput = z.strictObject(specific).optional();
  }
  schema = z.strictObject(shape);
  strictCache.set(event, schema);
  return schema;
}

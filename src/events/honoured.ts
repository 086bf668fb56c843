/**
 * Which output fields each event honours, derived from the catalog (never listed by hand):
 * the output linter warns on the rest, and the SDK validates hook output against
 * `strictOutputSchema(event)`, which accepts exactly these fields.
 *
 * Honoured means "the engine acts on it": universal fields follow the catalog's `universal` /
 * `keepsSystemMessage` flags, top-level decision/reason follow `topLevelBlock` (and PreToolUse's
 * deprecated form), hookSpecificOutput fields are the event's `output` shape plus hookEventName.
 */
import { z } from 'zod';
import { catalog, EVENT_NAMES, outputSchema, type EventName } from './catalog.js';
import type { EventSpec } from './spec.js';

export interface OutputFields {
  /** Top-level keys the event honours. */
  top: ReadonlySet<string>;
  /** hookSpecificOutput keys the event honours (hookEventName included); empty: it reads no hookSpecificOutput. */
  specific: ReadonlySet<string>;
  /** Keys of honoured hookSpecificOutput fields that are objects themselves (PermissionRequest's decision). */
  nested: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Top-level fields some event accepts (the loose output schema's keys). */
export const TOP_LEVEL_FIELDS: readonly string[] = Object.keys((outputSchema('PreToolUse') as z.ZodObject).shape);

const cache = new Map<EventName, OutputFields>();

function specificShape(event: EventName): Record<string, z.ZodType> {
  return ((catalog[event] as EventSpec).output as z.ZodObject).shape as Record<string, z.ZodType>;
}

/** The object schema inside an optional (one level), or undefined. */
function objectInside(schema: z.ZodType): z.ZodObject | undefined {
  let s = schema as z.ZodType & { def: { type: string; innerType?: z.ZodType } };
  if (s.def.type === 'optional' && s.def.innerType) s = s.def.innerType as typeof s;
  return s.def.type === 'object' ? (s as unknown as z.ZodObject) : undefined;
}

export function outputFields(event: EventName): OutputFields {
  let fields = cache.get(event);
  if (fields) return fields;
  const spec = catalog[event] as EventSpec;
  const top = new Set(['suppressOutput', 'terminalSequence']);
  if (spec.universal) top.add('continue').add('stopReason');
  if (spec.universal || spec.keepsSystemMessage) top.add('systemMessage');
  // The 'permission' model (PreToolUse) reads the deprecated top-level approve/block.
  if (spec.topLevelBlock || spec.decision === 'permission') top.add('decision').add('reason');
  const shape = specificShape(event);
  const specific = new Set<string>();
  const nested = new Map<string, Set<string>>();
  if (Object.keys(shape).length > 0) {
    top.add('hookSpecificOutput');
    specific.add('hookEventName');
    for (const [key, schema] of Object.entries(shape)) {
      specific.add(key);
      const obj = objectInside(schema);
      if (obj) nested.set(key, new Set(Object.keys(obj.shape)));
    }
  }
  fields = { top, specific, nested };
  cache.set(event, fields);
  return fields;
}

/** hookSpecificOutput fields of every event: to tell "belongs to another event" from "unknown". */
export const SPECIFIC_FIELDS_BY_EVENT: ReadonlyMap<string, readonly EventName[]> = (() => {
  const map = new Map<string, EventName[]>();
  for (const e of EVENT_NAMES) {
    for (const key of Object.keys(specificShape(e))) map.set(key, [...(map.get(key) ?? []), e]);
  }
  return map;
})();

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

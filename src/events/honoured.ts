/**
 * Which output fields each event honours, derived from the catalog (never listed by hand):
 * the output linter warns on the rest, and the SDK validates hook output against
 * `strictOutputSchema(event)` (src/events/strict-output.ts), which accepts exactly these fields.
 *
 * Honoured means "the engine acts on it": universal fields follow the catalog's `universal` /
 * `keepsSystemMessage` flags, top-level decision/reason follow `topLevelBlock` (and PreToolUse's
 * deprecated form), hookSpecificOutput fields are the event's `output` shape plus hookEventName.
 * The shapes' keys are read from the table generated from the zod schemas
 * (src/events/tables.generated.ts), so the output parser runs without loading zod.
 */
import { EVENT_NAMES, eventFacts, type EventName } from './facts.js';
import { SPECIFIC_OUTPUT, TOP_LEVEL_OUTPUT } from './tables.generated.js';

export interface OutputFields {
  /** Top-level keys the event honours. */
  top: ReadonlySet<string>;
  /** hookSpecificOutput keys the event honours (hookEventName included); empty: it reads no hookSpecificOutput. */
  specific: ReadonlySet<string>;
  /** Keys of honoured hookSpecificOutput fields that are objects themselves (PermissionRequest's decision). */
  nested: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Top-level fields some event accepts (the loose output schema's keys). */
export const TOP_LEVEL_FIELDS: readonly string[] = TOP_LEVEL_OUTPUT;

const cache = new Map<EventName, OutputFields>();

export function outputFields(event: EventName): OutputFields {
  let fields = cache.get(event);
  if (fields) return fields;
  const spec = eventFacts(event);
  const top = new Set(['suppressOutput', 'terminalSequence']);
  if (spec.universal) top.add('continue').add('stopReason');
  if (spec.universal || spec.keepsSystemMessage) top.add('systemMessage');
  // The 'permission' model (PreToolUse) reads the deprecated top-level approve/block.
  if (spec.topLevelBlock || spec.decision === 'permission') top.add('decision').add('reason');
  const shape = SPECIFIC_OUTPUT[event];
  const specific = new Set<string>();
  const nested = new Map<string, Set<string>>();
  if (Object.keys(shape).length > 0) {
    top.add('hookSpecificOutput');
    specific.add('hookEventName');
    for (const [key, inner] of Object.entries(shape)) {
      specific.add(key);
      if (inner) nested.set(key, new Set(inner));
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
    for (const key of Object.keys(SPECIFIC_OUTPUT[e])) map.set(key, [...(map.get(key) ?? []), e]);
  }
  return map;
})();

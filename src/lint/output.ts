/**
 * Output linting: a hook's JSON output may carry fields its event ignores (a typo such as
 * `permisionDecision`, a PreToolUse field on PostToolUse, `continue` on Notification). The engine
 * accepts them (the schemas are loose, for forward compatibility), so without a warning they
 * are silent no-ops. This turns each into one warning naming the field and the nearest valid name.
 *
 * Cheap on the hot path: one Set lookup per key; suggestions are computed only for a bad key.
 */
import { closest } from '../util/did-you-mean.js';
import type { EventName } from '../events/catalog.js';
import { outputFields, SPECIFIC_FIELDS_BY_EVENT, TOP_LEVEL_FIELDS } from '../events/honoured.js';
import { isObject } from '../util/is-object.js';

const q = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

/** One message per ignored field, as `path: problem`. Empty when every field is honoured. */
export function lintOutput(event: EventName, json: Record<string, unknown>): string[] {
  const fields = outputFields(event);
  let out: string[] | undefined;
  const warn = (msg: string) => {
    out ??= [];
    out.push(msg);
  };

  for (const key of Object.keys(json)) {
    if (fields.top.has(key)) continue;
    warn(topLevelMessage(event, key));
  }
  const hso = json.hookSpecificOutput;
  if (fields.top.has('hookSpecificOutput') && isObject(hso)) {
    for (const key of Object.keys(hso)) {
      if (fields.specific.has(key)) {
        const nested = fields.nested.get(key);
        const value = hso[key];
        if (nested && isObject(value)) {
          for (const k of Object.keys(value)) {
            if (nested.has(k)) continue;
            const hint = closest(k, [...nested]);
            warn(`hookSpecificOutput.${key}.${k}: unknown field${hint ? ` (did you mean ${q(hint)}?)` : ''}`);
          }
        }
        continue;
      }
      warn(specificMessage(event, key));
    }
  }
  return out ?? [];
}

function topLevelMessage(event: EventName, key: string): string {
  const fields = outputFields(event);
  if (TOP_LEVEL_FIELDS.includes(key)) {
    // A real field this event discards.
    if (key === 'hookSpecificOutput') return `hookSpecificOutput: ${event} reads no hookSpecificOutput`;
    if (key === 'decision' && fields.specific.has('decision')) {
      return `decision: ${event} reads no top-level decision (did you mean "hookSpecificOutput.decision"?)`;
    }
    if (key === 'reason') return `reason: ${event} reads no top-level decision or reason`;
    return `${key}: not honoured by ${event}`;
  }
  if (fields.specific.has(key)) return `${key}: belongs inside hookSpecificOutput, not at the top level`;
  const hint = closest(key, [...fields.top]);
  if (hint) return `${key}: unknown field (did you mean ${q(hint)}?)`;
  const inner = closest(
    key,
    [...fields.specific].filter((k) => k !== 'hookEventName'),
  );
  if (inner) return `${key}: unknown field (did you mean "hookSpecificOutput.${inner}"?)`;
  return `${key}: unknown field`;
}

function specificMessage(event: EventName, key: string): string {
  const fields = outputFields(event);
  const path = `hookSpecificOutput.${key}`;
  const hint = closest(key, [...fields.specific]);
  if (hint) return `${path}: unknown field (did you mean ${q(hint)}?)`;
  if (TOP_LEVEL_FIELDS.includes(key) && fields.top.has(key)) return `${path}: belongs at the top level, not inside hookSpecificOutput`;
  const owners = SPECIFIC_FIELDS_BY_EVENT.get(key);
  if (owners) return `${path}: not honoured by ${event} (a field of ${owners.slice(0, 3).join(', ')}${owners.length > 3 ? ', …' : ''})`;
  return `${path}: unknown field`;
}

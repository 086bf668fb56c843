/**
 * The payload `agent-hooks run` fires: a neutral default for every required field of the event
 * (from the catalog, via sampleInput), then --payload, then the field flags, then the common
 * fields. So `run Stop` or `run PostToolUse` work with no payload at all (docs/cli.md,
 * "Default payloads").
 */
import { randomUUID } from '../util/uuid.js';
import { EVENT_NAMES, type EventName } from '../events/facts.js';
import { INPUT_KEYS } from '../events/tables.generated.js';
import { sampleInput } from '../toolkit/sample.js';
import { isoTime } from '../util/iso-time.js';

export class PayloadError extends Error {}

export interface PayloadFlags {
  tool?: string;
  input?: unknown;
  prompt?: string;
  response?: unknown;
  stopActive?: boolean;
  source?: string;
  trigger?: string;
  message?: string;
  permissionMode?: string;
  sessionId?: string;
}

/** Flag → the input field it sets; a flag is refused on an event whose input has no such field. */
export const FIELD_FLAGS = [
  { flag: '--tool', key: 'tool', field: 'tool_name' },
  { flag: '--input', key: 'input', field: 'tool_input' },
  { flag: '--prompt', key: 'prompt', field: 'prompt' },
  { flag: '--response', key: 'response', field: 'tool_response' },
  { flag: '--stop-active', key: 'stopActive', field: 'stop_hook_active' },
  { flag: '--source', key: 'source', field: 'source' },
  { flag: '--trigger', key: 'trigger', field: 'trigger' },
  { flag: '--message', key: 'message', field: 'message' },
] as const satisfies readonly { flag: string; key: keyof PayloadFlags; field: string }[];

function inputFields(event: EventName): readonly string[] {
  return INPUT_KEYS[event];
}

/** Events whose input has `field` (for "--prompt applies to UserPromptSubmit, …"). */
function eventsWith(field: string): EventName[] {
  return EVENT_NAMES.filter((e) => inputFields(e).includes(field));
}

/**
 * The event-specific part: neutral defaults, overlaid by the given payload, overlaid by flags.
 * A given payload's fields win over defaults; flags win over both.
 */
export function buildPayload(event: EventName, given: Record<string, unknown>, flags: PayloadFlags): Record<string, unknown> {
  const fields = inputFields(event);
  const payload: Record<string, unknown> = { ...sampleInput(event), ...given };
  for (const { flag, key, field } of FIELD_FLAGS) {
    const value = flags[key];
    if (value === undefined) continue;
    if (!fields.includes(field)) {
      const where = eventsWith(field);
      throw new PayloadError(`${flag} sets ${field}, which ${event} does not have (it applies to ${where.join(', ')})`);
    }
    payload[field] = value;
  }
  // --tool alone: the default tool_input is Bash's, so a tool given without --input gets {}.
  if (flags.tool !== undefined && flags.input === undefined && given.tool_input === undefined) payload.tool_input = {};
  return payload;
}

/** The common fields every hook receives, filled where missing (hook_event_name always ours). */
export function addCommonFields(
  event: EventName,
  payload: Record<string, unknown>,
  opts: { cwd: string; sessionId?: string; permissionMode?: string },
): void {
  payload.session_id ??= opts.sessionId ?? `cli-${randomUUID()}`;
  payload.transcript_path ??= '';
  payload.cwd ??= opts.cwd;
  payload.hook_event_name = event;
  if (opts.permissionMode) payload.permission_mode = opts.permissionMode;
  else payload.permission_mode ??= 'default';
}

/** What a hook would read on stdin for this event: the payload plus the per-execution fields. */
export function examplePayload(event: EventName, payload: Record<string, unknown>): Record<string, unknown> {
  // Common fields first, as the agents send them; then the event's own; then the per-execution ones.
  const { session_id, transcript_path, cwd, hook_event_name, permission_mode, ...own } = payload;
  return {
    session_id,
    transcript_path,
    cwd,
    hook_event_name: hook_event_name ?? event,
    permission_mode,
    ...own,
    hook_execution_id: randomUUID(),
    timestamp: isoTime(),
  };
}

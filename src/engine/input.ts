/** A firing's input: completed with the common fields, then checked against the event's schema. */
import { eventCheck } from '../events/compiled.js';
import type { EventName } from '../events/facts.js';
import { formatZodIssues } from '../parse/zod-issues.js';
import { eventZodSchemas, requireEventZodSchemas } from '../util/zod-slot.js';
import { defineOwn } from '../reduce/reduce.js';

export class InvalidHookInputError extends Error {
  constructor(
    readonly event: string,
    readonly issues: string,
  ) {
    super(`invalid ${event} input: ${issues}`);
    this.name = 'InvalidHookInputError';
  }
}

/**
 * Validate an input the way run() does (common fields filled). run() validates only when a
 * hook matches, to keep no-match dispatch allocation-free; callers that want the check
 * regardless (the CLI, dispatchers) use this.
 */
export function checkInput(
  event: EventName,
  input: Record<string, unknown>,
  defaults: { cwd?: string; sessionId?: string } = {},
): string | undefined {
  const full = completeInput(event, input, { cwd: defaults.cwd ?? process.cwd(), sessionId: defaults.sessionId });
  return inputIssues(event, full);
}

/** checkInput on a lean path: loads what the check needs first (loadedInputIssues). */
export async function checkInputLoaded(
  event: EventName,
  input: Record<string, unknown>,
  defaults: { cwd?: string; sessionId?: string } = {},
): Promise<string | undefined> {
  const full = completeInput(event, input, { cwd: defaults.cwd ?? process.cwd(), sessionId: defaults.sessionId });
  return loadedInputIssues(event, full);
}

/**
 * inputIssues with what it needs loaded first: the event's compiled validator (required on first
 * use) decides alone when it accepts; zod is loaded only when it does not, or none is available.
 * The compiled validator runs once (the engine's hot path).
 */
export async function loadedInputIssues(event: EventName, full: Record<string, unknown>): Promise<string | undefined> {
  if (eventCheck('input', event)?.(full)) return undefined;
  if (!eventZodSchemas()) await import('../events/schemas.js'); // fills the slot
  return zodInputIssues(event, full);
}

/**
 * What is wrong with a completed input, or undefined. The compiled validator, when loaded
 * (src/events/compiled.ts), accepts first; zod decides whatever it does not and words the issues.
 */
function inputIssues(event: EventName, full: Record<string, unknown>): string | undefined {
  if (eventCheck('input', event)?.(full)) return undefined;
  return zodInputIssues(event, full);
}

function zodInputIssues(event: EventName, full: Record<string, unknown>): string | undefined {
  const check = requireEventZodSchemas().inputSchema(event).safeParse(full);
  return check.success ? undefined : formatZodIssues(check.error, full);
}

export function completeInput(
  event: EventName,
  raw: Record<string, unknown>,
  d: { cwd: string; sessionId?: string; mode?: string },
): Record<string, unknown> {
  // Copied key by key into a literal, not `{ ...raw }`: on Node 20's V8 each key added to a
  // spread copy costs about 1 µs (docs/performance.md), several times this whole function.
  const input: Record<string, unknown> = { session_id: undefined, transcript_path: undefined, cwd: undefined, hook_event_name: event };
  for (const key of Object.keys(raw)) {
    if (key === 'hook_event_name') continue;
    if (key === '__proto__')
      defineOwn(input, key, raw[key]); // a JSON key, not the prototype
    else input[key] = raw[key];
  }
  if (input.session_id === undefined) input.session_id = d.sessionId ?? 'default';
  if (input.cwd === undefined) input.cwd = d.cwd;
  if (input.transcript_path === undefined) input.transcript_path = '';
  if (input.permission_mode === undefined && d.mode !== undefined) input.permission_mode = d.mode;
  // Filled per execution; placeholders so the shared shape validates.
  input.hook_execution_id ??= '';
  input.timestamp ??= '';
  return input;
}

/**
 * Common fields of a wrong type that are harmless to coerce, coerced in place; one note each.
 * A numeric `tool_use_id` names the same call as its decimal string (no hook decides on it); a
 * `transcript_path` of null means "no transcript", as the "" a missing one gets; a null
 * `tool_use_id` (optional) is as if absent. Anything else of a wrong type — `session_id` included,
 * which keys the session's counters — is left to the validator.
 */
export function coerceCommonFields(input: Record<string, unknown>): string[] {
  const notes: string[] = [];
  const id = input.tool_use_id;
  if (typeof id === 'number' && Number.isFinite(id)) {
    input.tool_use_id = String(id);
    notes.push(`tool_use_id was the number ${id}; read as the string "${id}"`);
  }
  if (input.tool_use_id === null) {
    delete input.tool_use_id;
    notes.push('tool_use_id was null; read as absent');
  }
  if (input.transcript_path === null) {
    input.transcript_path = '';
    notes.push('transcript_path was null; read as "" (no transcript)');
  }
  return notes;
}

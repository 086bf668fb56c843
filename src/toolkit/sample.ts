/**
 * A minimal valid payload for any event, built from the catalog's input schema: every required
 * event-specific field gets a plausible value (common fields are left to the engine/runner).
 * Used by `init` to scaffold fixtures and by tests that must cover every event.
 */
import type { z } from 'zod';
import type { EventName } from '../events/facts.js';
import { SAMPLE_INPUT } from '../events/tables.generated.js';

/** Plausible values for well-known fields; anything else gets a generic value of its type. */
const KNOWN: Record<string, unknown> = {
  tool_name: 'Bash',
  tool_input: { command: 'ls' },
  tool_response: {},
  tool_calls: [],
  source: 'startup',
  trigger: 'manual',
  prompt: 'hello',
  reason: 'other',
  notification_type: 'idle_prompt',
  message: 'example message',
  error: 'example error',
  agent_id: 'agent-1',
  agent_type: 'general-purpose',
  agent_transcript_path: '/tmp/agent-transcript.jsonl',
  file_path: '/tmp/example.txt',
  mcp_server_name: 'example-server',
  name: 'example',
  worktree_path: '/tmp/worktree',
  teammate_name: 'teammate',
  task_id: 'task-1',
  task_subject: 'Example task',
  old_cwd: '/tmp/a',
  new_cwd: '/tmp/b',
  directory: '/tmp/dir',
  event: 'change',
  memory_type: 'Project',
  load_reason: 'session_start',
  expansion_type: 'slash_command',
  command_name: 'example',
  command_args: '',
  command_source: 'user',
  custom_instructions: '',
  compact_summary: 'summary',
  turn_id: 'turn-1',
  message_id: 'msg-1',
  delta: 'text',
};

type Def = { type: string; values?: unknown[]; shape?: Record<string, z.ZodType>; innerType?: z.ZodType };

function valueFor(key: string, schema: z.ZodType): unknown {
  const def = (schema as unknown as { def: Def; options?: unknown[]; shape?: Record<string, z.ZodType> }).def;
  if (key in KNOWN && schema.safeParse(KNOWN[key]).success) return KNOWN[key];
  switch (def.type) {
    case 'string':
      return 'example';
    case 'boolean':
      return false;
    case 'number':
    case 'int':
      return 0;
    case 'array':
      return [];
    case 'record':
      return {};
    case 'enum':
      return (schema as unknown as { options: unknown[] }).options[0];
    case 'literal':
      return def.values?.[0];
    case 'object':
      return sampleFromSchema((schema as unknown as { shape: Record<string, z.ZodType> }).shape);
    default:
      return null;
  }
}

export function sampleFromSchema(shape: Record<string, z.ZodType>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(shape)) {
    // Optional keys are left out; z.unknown() is a required key that accepts anything.
    if ((schema as unknown as { _zod: { optin?: string } })._zod.optin === 'optional') continue;
    const value = valueFor(key, schema);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * Required event-specific fields of the event's input, with plausible values: sampleFromSchema of
 * the event's input shape, read from the table generated from it (src/events/derive.ts).
 */
export function sampleInput(event: EventName): Record<string, unknown> {
  return structuredClone(SAMPLE_INPUT[event]);
}

/**
 * Compile-time checks of the SDK types (run by `npm run typecheck`; not a vitest file).
 * Each @ts-expect-error line must be an error: if the types stop catching it, tsc fails.
 */
import { addContext, ask, block, defineHook, deny, message, rewrite, runHook, stop, type HookInput, type HookOutput } from '../../src/sdk/index.js';
import { EVENT_NAMES, type EventName } from '../../src/events/catalog.js';

const opts = { exit: false } as const;

// Input types come from the catalog.
void defineHook('PreToolUse', (input) => {
  const tool: string = input.tool_name;
  const args: Record<string, unknown> = input.tool_input;
  void tool, args;
  // @ts-expect-error -- PreToolUse input has no stop_hook_active
  void input.stop_hook_active.valueOf();
  return undefined;
}, opts);
void defineHook('Stop', (input) => (input.stop_hook_active ? undefined : block('continue')), opts);
void defineHook('SessionStart', (input) => addContext(`source ${input.source}`), opts);

// The form: an async handler returning a literal output.
void defineHook('PreToolUse', async () => ({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no' } }), opts);
// @ts-expect-error -- misspelled field
void defineHook('PreToolUse', async () => ({ hookSpecificOutput: { permisionDecision: 'deny' } }), opts);
// @ts-expect-error -- not a permission decision
void defineHook('PreToolUse', () => ({ hookSpecificOutput: { permissionDecision: 'dney' } }), opts);
// @ts-expect-error -- continue is not honoured by Notification
void defineHook('Notification', () => ({ continue: false }), opts);
// @ts-expect-error -- PermissionRequest has no top-level decision
void defineHook('PermissionRequest', () => ({ decision: 'block' }), opts);

// Helpers are typed per event.
void defineHook('PreToolUse', () => [rewrite({ command: 'ls' }), addContext('x')], opts);
void defineHook('PreToolUse', () => ask('why'), opts);
void defineHook('PostToolUse', () => [block('feedback'), stop('halt'), message('m')], opts);
// @ts-expect-error -- ask() has no effect on Stop
void defineHook('Stop', () => ask(), opts);
// @ts-expect-error -- Notification reads no additionalContext
void defineHook('Notification', () => addContext('x'), opts);
// @ts-expect-error -- deny() cannot block a Notification
void defineHook('Notification', () => deny('x'), opts);

// Every event is a valid defineHook event, with its own input type.
for (const event of EVENT_NAMES) void runHook(event, (input: HookInput<EventName>) => void input.session_id, '{}');
// @ts-expect-error -- not an event
void defineHook('PreTooluse', () => undefined, opts);

const out: HookOutput<'PermissionRequest'> = { hookSpecificOutput: { decision: { behavior: 'allow', updatedInput: { a: 1 } } } };
void out;

/**
 * Compile-time checks of the typed engine API that `agent-hooks` exports (run by `npm run
 * typecheck`; not a vitest file). Each @ts-expect-error line must be an error: if the types
 * stop catching it, tsc fails.
 */
import { createHookEngine, untyped, type Decision, type EventName, type FunctionHookResult, type RunInput, type UntypedHookEngine } from '../../src/index.js';

const engine = createHookEngine({ projectDir: '/tmp' });

// run<E>: the input is the event's own, with the common fields optional.
void engine.run('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });
void engine.run('PreToolUse', { tool_name: 'Bash', tool_input: {}, session_id: 's', cwd: '/', permission_mode: 'plan' });
void engine.run('UserPromptSubmit', { prompt: 'hi' });
void engine.run('Stop', { stop_hook_active: false });
// @ts-expect-error -- misspelled input field
void engine.run('PreToolUse', { tool_nam: 'Bash', tool_input: {} });
// @ts-expect-error -- unknown extra field on an exact input
void engine.run('PreToolUse', { tool_name: 'Bash', tool_input: {}, tool_inputs: {} });
// @ts-expect-error -- a required field is missing
void engine.run('UserPromptSubmit', {});
// @ts-expect-error -- wrong field type
void engine.run('Stop', { stop_hook_active: 'no' });
// @ts-expect-error -- not an event
void engine.run('PreTooluse', {});
// @ts-expect-error -- hook_event_name must be the event fired
void engine.run('Stop', { stop_hook_active: true, hook_event_name: 'PreToolUse' });

// An event known only at run time takes any record (run() validates at run time).
declare const someEvent: EventName;
declare const payload: Record<string, unknown>;
void engine.run(someEvent, payload);

// Decision<E>: eventOutput holds the event's own output fields.
async function decisions(): Promise<void> {
  const d = await engine.run('PreToolUse', { tool_name: 'Bash', tool_input: {} });
  const event: 'PreToolUse' = d.event;
  const blocked: boolean = d.blocked;
  const p: 'allow' | 'deny' | 'ask' | 'defer' | undefined = d.eventOutput.permissionDecision;
  void event, blocked, p;
  // @ts-expect-error -- misspelled output field
  void d.eventOutput.permisionDecision;
  const s = await engine.run('UserPromptSubmit', { prompt: 'x' });
  const title: string | undefined = s.eventOutput.sessionTitle;
  void title;
  // @ts-expect-error -- PreToolUse's field is not UserPromptSubmit's
  void s.eventOutput.permissionDecision;
  const typed: Decision<'Stop'> = await engine.run('Stop', { stop_hook_active: true });
  // @ts-expect-error -- a Stop decision is not a PreToolUse one
  const wrong: Decision<'PreToolUse'> = typed;
  void wrong;
  // Every typed decision is a Decision.
  const loose: Decision = typed;
  void loose;
}
void decisions;

// register<E>: the handler's input and output are typed by the event.
engine.register({
  event: 'PreToolUse',
  matcher: 'Bash',
  fn: (input) => (input.tool_name === 'Bash' ? { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' } } : undefined),
});
engine.register({ event: 'PreToolUse', fn: async () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'ls' } } }) });
engine.register({ event: 'Stop', fn: (input) => (input.stop_hook_active ? undefined : { decision: 'block', reason: 'go on' }) });
engine.register({ event: 'SessionStart', fn: () => 'plain text, read as stdout' });
engine.register({ event: 'Notification', fn: () => {} });
// @ts-expect-error -- misspelled output field (the only field: no overlap with the event's output)
engine.register({ event: 'PreToolUse', fn: () => ({ hookSpecificOutput: { permisionDecision: 'deny' } }) });
// A literal returned from an arrow is not checked for excess fields next to valid ones (TypeScript
// checks excess properties only where a literal meets its declared type): declare the result type.
// @ts-expect-error -- misspelled output field next to a valid one, with the result type declared
engine.register({ event: 'PreToolUse', fn: (): FunctionHookResult<'PreToolUse'> => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permisionDecision: 'deny' } }) });
// @ts-expect-error -- not a permission decision
engine.register({ event: 'PreToolUse', fn: () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'dney' } }) });
// @ts-expect-error -- async handlers are checked too
engine.register({ event: 'PreToolUse', fn: async () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'dney' } }) });
// @ts-expect-error -- the engine needs hookEventName in a function hook's hookSpecificOutput
engine.register({ event: 'PreToolUse', fn: () => ({ hookSpecificOutput: { permissionDecision: 'deny' } }) });
// @ts-expect-error -- hookEventName must be the registered event
engine.register({ event: 'PreToolUse', fn: () => ({ hookSpecificOutput: { hookEventName: 'PostToolUse', permissionDecision: 'deny' } }) });
// @ts-expect-error -- Notification does not honour continue
engine.register({ event: 'Notification', fn: () => ({ continue: false }) });
// @ts-expect-error -- PermissionRequest has no top-level decision
engine.register({ event: 'PermissionRequest', fn: () => ({ decision: 'block' }) });
// @ts-expect-error -- Stop's input has no tool_name
engine.register({ event: 'Stop', fn: (input) => void input.tool_name.length });
// @ts-expect-error -- not an event
engine.register({ event: 'Stopp', fn: () => undefined });

// RunInput<E> is what a payload read from JSON is cast to.
const fromJson = JSON.parse('{"tool_name":"Bash","tool_input":{}}') as RunInput<'PreToolUse'>;
void engine.run('PreToolUse', fromJson);

// The untyped view, for dialect payloads whose event is dynamic.
const loose: UntypedHookEngine = untyped(engine);
void loose.run('PreToolUse', { anything: 1 });

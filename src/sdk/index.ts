/**
 * agent-hooks/sdk: write a command hook in TypeScript or JavaScript with typed input and
 * validated output.
 *
 *   import { defineHook, deny } from 'agent-hooks/sdk';
 *   defineHook('PreToolUse', (input) =>
 *     String(input.tool_input.command).includes('rm -rf') ? deny('no rm -rf') : undefined);
 *
 * defineHook reads the payload from stdin, validates it against the event's input schema,
 * calls the handler, validates what it returns against the event's strict output schema (a
 * misspelled or ignored field is an error that names it), prints the JSON and exits.
 *
 * Exit codes: 0 = ran (the printed JSON decides); 2 = only where the SDK blocks through the exit
 * code (block/deny on TeammateIdle, TaskCompleted, WorktreeCreate, which read no JSON decision);
 * 1 = the hook itself is broken (bad stdin, handler threw, invalid output). 1 is a non-blocking
 * error on purpose: a bug in a hook must not block the agent by accident (2 would), and the
 * hook's failureBehavior can still turn it into deny where a team wants fail-closed.
 *
 * Types and schemas come from the event catalog, the engine's single source of truth.
 */
import '../entry/zod-schemas.js'; // the schema slot, for this entry's synchronous functions (src/util/zod-slot.ts)
import { z } from 'zod';
import { eventFacts, inputSchema, isEventName, EVENT_NAMES, type Catalog, type EventName } from '../events/catalog.js';
import type { commonInputShape } from '../events/common.js';
import { outputFields } from '../events/honoured.js';
import { strictOutputSchema } from '../events/strict-output.js';
import { lintOutput } from '../lint/output.js';
import { isObject } from '../util/is-object.js';

export { EVENT_NAMES, type EventName };
export { strictOutputSchema };

// ---------------------------------------------------------------------------------------------
// Types, derived from the catalog.

type Spec<E extends EventName> = Catalog[E];
type SpecificShape<E extends EventName> = Spec<E>['output']['shape'];

type UniversalFields<E extends EventName> = { suppressOutput?: boolean; terminalSequence?: string } & (Spec<E>['universal'] extends true
  ? { continue?: boolean; stopReason?: string; systemMessage?: string }
  : Spec<E> extends { keepsSystemMessage: true }
    ? { systemMessage?: string }
    : // biome-ignore lint/complexity/noBannedTypes: the empty member of the intersection
      {});

type TopDecision<E extends EventName> = E extends 'PreToolUse'
  ? { /** Deprecated: use hookSpecificOutput.permissionDecision. */ decision?: 'approve' | 'block'; reason?: string }
  : Spec<E>['topLevelBlock'] extends true
    ? { decision?: 'block'; reason?: string }
    : // biome-ignore lint/complexity/noBannedTypes: the empty member of the intersection
      {};

type SpecificFields<E extends EventName> = keyof SpecificShape<E> extends never
  ? // biome-ignore lint/complexity/noBannedTypes: the empty member of the intersection (no specific output)
    {}
  : {
      hookSpecificOutput?: z.output<z.ZodObject<SpecificShape<E>, z.core.$strict>> & {
        /** Filled in by the SDK when omitted. */
        hookEventName?: E;
      };
    };

/** The JSON output a hook of event E may print: exactly the fields the event honours. */
export type HookOutput<E extends EventName> = UniversalFields<E> & TopDecision<E> & SpecificFields<E>;

/**
 * The payload a hook of event E receives on stdin. hook_execution_id and timestamp are added
 * by this engine only; under the agent itself (Claude Code) they are absent.
 */
export type HookInput<E extends EventName> = Omit<CommonInput, 'hook_event_name' | 'hook_execution_id' | 'timestamp'> &
  z.infer<Catalog[E]['input']> & { hook_event_name: E; hook_execution_id?: string; timestamp?: string };
// (Omit over EventInput<E> itself would erase its fields: the loose input type has an index signature.)
type CommonInput = z.infer<z.ZodObject<typeof commonInputShape>>;

const sdkInputCache = new Map<EventName, z.ZodType>();
/** The catalog's input schema with the engine-only fields optional. */
function sdkInputSchema(event: EventName): z.ZodType {
  let schema = sdkInputCache.get(event);
  if (!schema) {
    schema = (inputSchema(event) as z.ZodObject).extend({ hook_execution_id: z.string().optional(), timestamp: z.string().optional() });
    sdkInputCache.set(event, schema);
  }
  return schema;
}

const INTENT: unique symbol = Symbol.for('agent-hooks.sdk.intent');

export type IntentKind = 'allow' | 'deny' | 'ask' | 'defer' | 'block' | 'rewrite' | 'context' | 'stop' | 'message';

/** What an output helper returns: an event-independent intent that defineHook turns into the event's output. */
export interface HookIntent<K extends IntentKind = IntentKind> {
  readonly [INTENT]: K;
  readonly text?: string;
  readonly input?: Record<string, unknown>;
}

type Model<E extends EventName> = Spec<E>['decision'];
type VerdictIntents<E extends EventName> =
  Model<E> extends 'permission'
    ? 'allow' | 'deny' | 'ask' | 'defer' | 'block' | 'rewrite'
    : Model<E> extends 'permission-request'
      ? 'allow' | 'deny' | 'block' | 'rewrite'
      : Spec<E>['topLevelBlock'] extends true
        ? 'deny' | 'block'
        : Model<E> extends 'exit-or-continue' | 'worktree' | 'elicitation'
          ? 'deny' | 'block'
          : never;
type ContextIntent<E extends EventName> = 'additionalContext' extends keyof SpecificShape<E> ? 'context' : never;
type UniversalIntents<E extends EventName> = Spec<E>['universal'] extends true
  ? 'stop' | 'message'
  : Spec<E> extends { keepsSystemMessage: true }
    ? 'message'
    : never;

/** The helpers that have an effect on event E. */
export type IntentFor<E extends EventName> = VerdictIntents<E> | ContextIntent<E> | UniversalIntents<E>;

/** What a handler may return: a full output, one or more helper results, or nothing (no opinion). */
export type HookResult<E extends EventName> =
  | HookOutput<E>
  | HookIntent<IntentFor<E>>
  | ReadonlyArray<HookIntent<IntentFor<E>>>
  | undefined
  | null
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler that returns nothing is a valid hook
  | void;

export interface HookContext<E extends EventName = EventName> {
  event: E;
}

export type HookHandler<E extends EventName> = (input: HookInput<E>, ctx: HookContext<E>) => HookResult<E> | Promise<HookResult<E>>;

/**
 * HookHandler<E> looked up through a mapped type: in `defineHook('PreToolUse', async () => ({...}))`
 * this keeps the returned object literal contextually typed (a plain HookHandler<E> parameter
 * widens 'deny' to string while E is being inferred).
 */
type HandlerFor<E extends EventName> = { [K in EventName]: HookHandler<K> }[E];

// ---------------------------------------------------------------------------------------------
// Output helpers. Each returns an intent; defineHook shapes it for the event at hand.

const intent = <K extends IntentKind>(kind: K, fields: { text?: string; input?: Record<string, unknown> } = {}): HookIntent<K> =>
  Object.freeze({ [INTENT]: kind, ...fields }) as HookIntent<K>;

/** Let the call through (PreToolUse: permissionDecision allow; PermissionRequest: behavior allow). */
export const allow = (reason?: string) => intent('allow', { text: reason });
/** Refuse (PreToolUse: permissionDecision deny; PermissionRequest: behavior deny; block events: decision block). */
export const deny = (reason: string) => intent('deny', { text: reason });
/** Ask the user (PreToolUse only). */
export const ask = (reason?: string) => intent('ask', { text: reason });
/** Defer the decision to a later layer (PreToolUse only). */
export const defer = () => intent('defer');
/** Block the action with a reason (block events: decision block; PreToolUse: deny; exit-code events: exit 2). */
export const block = (reason: string) => intent('block', { text: reason });
/** Replace the tool input (PreToolUse: updatedInput; PermissionRequest: allow with updatedInput). */
export const rewrite = (input: Record<string, unknown>) => intent('rewrite', { input });
/** Add context for the model (hookSpecificOutput.additionalContext); several are joined with newlines. */
export const addContext = (text: string) => intent('context', { text });
/** Stop the agent entirely (continue: false, stopReason). */
export const stop = (reason?: string) => intent('stop', { text: reason });
/** Show a message to the user (systemMessage); several are joined with newlines. */
export const message = (text: string) => intent('message', { text });

function isIntent(value: unknown): value is HookIntent {
  return typeof value === 'object' && value !== null && INTENT in value;
}

// ---------------------------------------------------------------------------------------------
// Running a hook.

export interface HookRunResult {
  exitCode: 0 | 1 | 2;
  stdout: string;
  stderr: string;
}

class HookError extends Error {}

function formatIssues(error: z.ZodError): string {
  return error.issues
    .map(
      (i) =>
        `${
          i.path.length
            ? i.path
                .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
                .join('.')
                .replace(/\.\[/g, '[')
            : '(root)'
        }: ${i.message}`,
    )
    .join('; ');
}

const verdictKinds = new Set<IntentKind>(['allow', 'deny', 'ask', 'defer', 'block']);

/** Intents → the event's output (and, for exit-code events, exit 2 with the reason on stderr). */
function intentsToOutput(
  event: EventName,
  intents: readonly HookIntent[],
): { output: Record<string, unknown>; exitCode: 0 | 2; stderr: string } {
  const spec = eventFacts(event);
  const fields = outputFields(event);
  const output: Record<string, unknown> = {};
  const hso: Record<string, unknown> = {};
  let exitCode: 0 | 2 = 0;
  let stderr = '';
  const kinds = intents.map((i) => i[INTENT]);
  const verdicts = intents.filter((i) => verdictKinds.has(i[INTENT]));
  if (verdicts.length > 1) throw new HookError(`conflicting decisions: ${verdicts.map((v) => `${v[INTENT]}()`).join(' and ')}`);
  if (kinds.filter((k) => k === 'rewrite').length > 1) throw new HookError('rewrite() given more than once');
  if (kinds.filter((k) => k === 'stop').length > 1) throw new HookError('stop() given more than once');
  const unsupported = (kind: IntentKind, hint = '') =>
    new HookError(`${kind === 'context' ? 'addContext' : kind}() has no effect on ${event}${hint}`);

  const verdict = verdicts[0];
  const rewritten = intents.find((i) => i[INTENT] === 'rewrite');
  const contexts = intents.filter((i) => i[INTENT] === 'context').map((i) => i.text ?? '');
  const messages = intents.filter((i) => i[INTENT] === 'message').map((i) => i.text ?? '');
  const stopIntent = intents.find((i) => i[INTENT] === 'stop');
  const kind = verdict?.[INTENT];

  switch (spec.decision) {
    case 'permission':
      if (kind) {
        hso.permissionDecision = kind === 'block' ? 'deny' : kind;
        if (verdict.text !== undefined) hso.permissionDecisionReason = verdict.text;
      }
      if (rewritten) {
        if (kind === 'deny' || kind === 'block' || kind === 'defer') throw new HookError(`rewrite() has no effect together with ${kind}()`);
        hso.updatedInput = rewritten.input;
      }
      break;
    case 'permission-request':
      if (kind === 'ask' || kind === 'defer') throw unsupported(kind, ': return nothing to let the permission dialog show');
      if (kind === 'deny' || kind === 'block') {
        if (rewritten) throw new HookError(`rewrite() has no effect together with ${kind}()`);
        hso.decision = verdict!.text !== undefined ? { behavior: 'deny', message: verdict!.text } : { behavior: 'deny' };
      } else if (kind === 'allow' || rewritten) {
        hso.decision = rewritten ? { behavior: 'allow', updatedInput: rewritten.input } : { behavior: 'allow' };
      }
      break;
    default:
      if (rewritten) throw unsupported('rewrite');
      if (kind === 'deny' || kind === 'block') {
        if (spec.topLevelBlock) {
          output.decision = 'block';
          output.reason = verdict!.text;
        } else if (spec.decision === 'elicitation') {
          hso.action = 'decline';
        } else if (spec.decision === 'exit-or-continue' || spec.decision === 'worktree') {
          // These events read no JSON decision: exit 2 with the reason on stderr is how they block.
          exitCode = 2;
          stderr = verdict!.text ?? '';
        } else throw unsupported(kind, spec.canBlock ? '' : ' (it cannot block)');
      } else if (kind) {
        throw unsupported(kind, spec.topLevelBlock ? ': use block(reason)' : '');
      }
  }
  if (contexts.length > 0) {
    if (!fields.specific.has('additionalContext')) throw unsupported('context', ' (it reads no additionalContext)');
    hso.additionalContext = contexts.join('\n');
  }
  if (stopIntent) {
    if (!fields.top.has('continue')) throw unsupported('stop', ` (it ignores "continue")`);
    output.continue = false;
    if (stopIntent.text !== undefined) output.stopReason = stopIntent.text;
  }
  if (messages.length > 0) {
    if (!fields.top.has('systemMessage')) throw unsupported('message', ` (it ignores "systemMessage")`);
    output.systemMessage = messages.join('\n');
  }
  if (Object.keys(hso).length > 0) output.hookSpecificOutput = { hookEventName: event, ...hso };
  return { output, exitCode, stderr };
}

/** Why an output is invalid for the event, path-qualified with "did you mean" hints; undefined when valid. */
export function checkOutput(event: EventName, output: unknown): string | undefined {
  const r = strictOutputSchema(event).safeParse(output);
  if (r.success) return undefined;
  // Unknown and ignored keys: the linter's messages name the nearest valid field.
  const keyProblems = isObject(output) ? lintOutput(event, output) : [];
  const others = r.error.issues.filter((i) => i.code !== 'unrecognized_keys');
  const rest = others.length > 0 ? formatIssues({ issues: others } as z.ZodError) : '';
  return [...keyProblems, ...(rest ? [rest] : [])].join('; ') || formatIssues(r.error);
}

/**
 * Run a handler on one payload (the text a hook reads from stdin) without touching the
 * process: what defineHook does, returned instead of printed. Use it to unit-test a handler.
 */
export async function runHook<E extends EventName>(event: E, handler: HandlerFor<E>, stdinText: string): Promise<HookRunResult> {
  const fail = (msg: string): HookRunResult => ({ exitCode: 1, stdout: '', stderr: `agent-hooks/sdk: ${msg}\n` });
  if (typeof event !== 'string' || !isEventName(event)) return fail(`unknown event ${JSON.stringify(event)}`);
  if (stdinText.trim() === '') return fail(`${event} hook: no payload on stdin (a hook reads its JSON payload from stdin)`);
  let raw: unknown;
  try {
    raw = JSON.parse(stdinText);
  } catch (err) {
    return fail(`${event} hook: stdin is not JSON (${(err as Error).message.replace(/\s+/g, ' ')})`);
  }
  if (!isObject(raw)) return fail(`${event} hook: stdin must be a JSON object`);
  const check = sdkInputSchema(event).safeParse(raw);
  if (!check.success) return fail(`invalid ${event} input: ${formatIssues(check.error)}`);

  let result: HookResult<E>;
  try {
    result = await handler(raw as HookInput<E>, { event });
  } catch (err) {
    const e = err as Error;
    const stack = typeof e?.stack === 'string' ? `\n${e.stack}` : '';
    return fail(`${event} handler threw: ${e?.message ?? String(err)}${stack}`);
  }
  if (result === undefined || result === null) return { exitCode: 0, stdout: '', stderr: '' };

  let output: Record<string, unknown>;
  let exitCode: 0 | 2 = 0;
  let stderr = '';
  try {
    if (isIntent(result) || (Array.isArray(result) && result.every(isIntent))) {
      ({ output, exitCode, stderr } = intentsToOutput(event, Array.isArray(result) ? result : [result as HookIntent]));
    } else if (isObject(result)) {
      output = { ...result };
      const hso = output.hookSpecificOutput;
      if (isObject(hso) && hso.hookEventName === undefined) output.hookSpecificOutput = { hookEventName: event, ...hso };
    } else {
      throw new HookError(
        `the handler returned ${Array.isArray(result) ? 'an array that is not all helper results' : typeof result}; return an output object, helper results, or nothing`,
      );
    }
  } catch (err) {
    if (err instanceof HookError) return fail(`invalid ${event} output: ${err.message}`);
    throw err;
  }
  const problem = checkOutput(event, output);
  if (problem) return fail(`invalid ${event} output: ${problem}`);
  const stdout = Object.keys(output).length > 0 ? `${JSON.stringify(output)}\n` : '';
  return { exitCode, stdout, stderr: stderr ? `${stderr}\n` : '' };
}

export interface DefineHookOptions {
  /** Default process.stdin / stdout / stderr. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  /**
   * Exit the process once the output is flushed (default true), so a handle the handler left
   * open (a timer, a socket) cannot keep the hook running into its timeout. false: only set
   * process.exitCode.
   */
  exit?: boolean;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  stream.setEncoding?.('utf8');
  for await (const chunk of stream as AsyncIterable<string | Buffer>) text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
  return text;
}

function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (!text) return Promise.resolve();
  return new Promise((resolve) => stream.write(text, () => resolve()));
}

/**
 * Define and run a hook: read stdin, validate, call the handler, validate and print its
 * output, set the exit code (see the module comment for what each code means).
 */
export async function defineHook<E extends EventName>(
  event: E,
  handler: HandlerFor<E>,
  opts: DefineHookOptions = {},
): Promise<HookRunResult> {
  const stdin = opts.stdin ?? process.stdin;
  const stdout = opts.stdout ?? process.stdout;
  const stderr = opts.stderr ?? process.stderr;
  let result: HookRunResult;
  if (stdin.isTTY) {
    result = {
      exitCode: 1,
      stdout: '',
      stderr: `agent-hooks/sdk: ${String(event)} hook expects its JSON payload on stdin (try: agent-hooks run ${String(event)} ...)\n`,
    };
  } else {
    try {
      result = await runHook(event, handler, await readAll(stdin));
    } catch (err) {
      result = { exitCode: 1, stdout: '', stderr: `agent-hooks/sdk: internal error: ${(err as Error)?.stack ?? String(err)}\n` };
    }
  }
  await write(stdout, result.stdout);
  await write(stderr, result.stderr);
  process.exitCode = result.exitCode;
  if (opts.exit !== false) process.exit(result.exitCode);
  return result;
}

/**
 * The typed face of the engine, what `agent-hooks` exports: `run<E>`, `register<E>` and
 * `Decision<E>` typed per event from the catalog's zod schemas, so a misspelled input field
 * (`tool_nam`) or output field (`permisionDecision`) is a compile error. At run time it is the
 * engine of engine/engine.ts itself; only the types are narrower (test/sdk/api.test-d.ts).
 */
import type { z } from 'zod';
import type { Catalog, EventName } from './events/catalog.js';
import type { commonInputShape } from './events/common.js';
import {
  createHookEngine as createEngine,
  type FunctionHookRegistration,
  type HookEngine as UntypedHookEngine,
  type HookEngineOptions,
  type RunContext,
} from './engine/engine.js';
import type { Decision as UntypedDecision } from './reduce/reduce.js';
import type { HookInput, HookOutput } from './sdk/index.js';

export type { UntypedHookEngine };

type CommonInput = z.input<z.ZodObject<typeof commonInputShape>>;
/** Common fields run() fills in when the caller leaves them out (the engine's defaults). */
type Filled = 'session_id' | 'transcript_path' | 'cwd' | 'hook_event_name' | 'hook_execution_id' | 'timestamp';
type Strict<S extends z.core.$ZodShape> = z.ZodObject<S, z.core.$strict>;

/**
 * What run(E, input) takes: the event's own fields as the catalog declares them, plus the common
 * fields, of which session_id, cwd and transcript_path may be left to the engine. Exact (no index
 * signature), so an object literal with an unknown field does not compile; a payload read from
 * JSON is cast to it after its own validation (run() validates again at run time). With an event
 * known only at run time (the EventName union) any record is taken.
 */
export type RunInput<E extends EventName> = EventName extends E
  ? Record<string, unknown> // the event is known only at run time: checked at run time only
  : E extends EventName
    ? Partial<Pick<CommonInput, Filled>> &
        Omit<CommonInput, Filled> &
        z.input<Strict<Catalog[E]['input']['shape']>> & { hook_event_name?: E }
    : never;

/** A Decision for event E: `eventOutput` holds only the event's own honoured output fields. */
export type Decision<E extends EventName = EventName> = EventName extends E
  ? UntypedDecision
  : E extends EventName
    ? Omit<UntypedDecision, 'event' | 'eventOutput'> & { event: E; eventOutput: Partial<z.output<Strict<Catalog[E]['output']['shape']>>> }
    : never;

/**
 * The JSON output of event E as a function hook returns it: as a command hook prints it, with
 * hookSpecificOutput.hookEventName required (the engine rejects an output without it).
 */
type FunctionHookOutput<E extends EventName> = Omit<HookOutput<E>, 'hookSpecificOutput'> &
  (keyof Catalog[E]['output']['shape'] extends never
    ? // biome-ignore lint/complexity/noBannedTypes: the empty member of the intersection (no specific output)
      {}
    : { hookSpecificOutput?: Flat<z.output<Strict<Catalog[E]['output']['shape']>> & { hookEventName: E }> });
/** One object type instead of an intersection, so an object literal's unknown key is an excess property. */
type Flat<T> = { [K in keyof T]: T[K] };

/**
 * What a function hook of event E returns: the event's JSON output (exactly the fields it
 * honours), plain text (read like a command hook's stdout), or nothing (no opinion).
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a handler that returns nothing is a valid hook (void, not only undefined)
export type FunctionHookResult<E extends EventName> = FunctionHookOutput<E> | string | undefined | null | void;

/** register() for event E: the handler's input and result are typed by the event. */
export interface HookRegistration<E extends EventName> extends Omit<FunctionHookRegistration<E>, 'event' | 'fn'> {
  event: E;
  fn: (input: HookInput<E>, ctx: { signal: AbortSignal }) => FunctionHookResult<E> | Promise<FunctionHookResult<E>>;
}

/**
 * One registration of any event, as a union discriminated by `event`: an object literal's `fn`
 * is then typed by the literal event it names (a generic register<E> would widen the returned
 * literals, 'deny' to string, while E is being inferred from the same object).
 */
type AnyHookRegistration = { [K in EventName]: HookRegistration<K> }[EventName];

export interface HookEngine extends Omit<UntypedHookEngine, 'run' | 'register'> {
  /** Fire event E: runs the matching hooks and reduces their answers to one Decision. */
  run<E extends EventName>(event: E, input: RunInput<E>, ctx?: RunContext): Promise<Decision<E>>;
  /** Register an in-process function hook; returns its unregister function. */
  register(reg: AnyHookRegistration): () => void;
}

/** Create an engine (options: hooks from loadConfig(), projectDir, timeouts, audit, backends, …). */
export function createHookEngine(options: HookEngineOptions = {}): HookEngine {
  // The same object: the typed interface only narrows what callers may pass and read.
  return createEngine(options) as unknown as HookEngine;
}

/** The typed engine seen as the untyped one, for payloads whose event is known only at run time. */
export function untyped(engine: HookEngine): UntypedHookEngine {
  return engine as unknown as UntypedHookEngine;
}

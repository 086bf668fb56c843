/**
 * The hooks one engine runs: the config hooks (replaced whole by setHooks) and the function
 * hooks registered in process, with the plan index built from both.
 */
import type { EventName } from '../events/catalog.js';
import type { NormalizedHook } from '../types.js';
import { ensureIfRules } from '../matching/lazy-rules.js';
import { ifRules } from '../matching/rule-slot.js';
import { buildPlanIndex, type CompiledHooks, type PlanIndex } from './plan.js';
import type { FunctionHookRegistration } from './types.js';
import { withBuiltins, type BuiltinHooks } from './builtin-hooks.js';
import { REGISTRATION_KEYS } from './option-keys.js';
import { checkKnownKeys } from '../util/option-keys.js';

export interface HookSet {
  /** The config hooks, with the switched-on built-ins (builtin-hooks.ts) appended. */
  readonly config: NormalizedHook[];
  readonly builtins: BuiltinHooks | undefined;
  /** Registrations by number (a Map keeps insertion order and deletes in O(1)). */
  readonly functions: Map<number, NormalizedHook>;
  nextFunction: number;
  readonly compiled: CompiledHooks;
  /** Undefined after a change: rebuilt once, at the next run, after any number of changes. */
  index: PlanIndex | undefined;
}

export function createHookSet(hooks: readonly NormalizedHook[] = [], builtins?: BuiltinHooks): HookSet {
  const config = withBuiltins(hooks, builtins);
  const compiled: CompiledHooks = new Map();
  return { config, builtins, functions: new Map(), nextFunction: 0, compiled, index: buildPlanIndex(config, compiled) };
}

export function currentIndex(set: HookSet): PlanIndex {
  // Built while the `if`-rule module was not loaded, and it is now (another engine or a caller
  // loaded it): rebuilt here, synchronously, so planning never waits once the module is in.
  if (set.index?.unloadedRules && ifRules()) set.index = undefined;
  set.index ??= buildPlanIndex(set.functions.size === 0 ? set.config : [...set.config, ...set.functions.values()], set.compiled);
  return set.index;
}

/**
 * The index with every `if` parsed: when some hook's rule waited for the rule module (plan.ts),
 * load it and rebuild once. If it cannot load, the index stays as built (those hooks run, their
 * rule undecided) and `failure` says why.
 */
export async function readyIndex(set: HookSet): Promise<{ index: PlanIndex; failure?: string }> {
  const index = currentIndex(set);
  if (!index.unloadedRules) return { index };
  const failure = await ensureIfRules();
  return failure === undefined ? { index: currentIndex(set) } : { index: currentIndex(set), failure };
}

/** Adds an in-process function hook; returns its unregister function. An unknown field is a TypeError. */
export function registerFunction(set: HookSet, reg: FunctionHookRegistration): () => void {
  checkKnownKeys('register', reg, REGISTRATION_KEYS, '', 'field');
  const n = set.nextFunction++;
  const hook: NormalizedHook = {
    id: `sdk:${reg.name ?? 'function'}#${n}`,
    event: reg.event,
    matcher: reg.matcher,
    handler: {
      type: 'function',
      fn: reg.fn,
      name: reg.name,
      if: reg.if,
      timeout: reg.timeout,
      failureBehavior: reg.failureBehavior,
      timeoutBehavior: reg.timeoutBehavior,
    },
    source: { kind: 'sdk', path: `function:${reg.name ?? n}` },
    dedupKey: `\0function#${n}`,
    projectDir: reg.projectDir,
  };
  set.functions.set(n, hook);
  set.index = undefined;
  return () => {
    if (set.functions.delete(n)) {
      set.compiled.delete(hook);
      set.index = undefined;
    }
  };
}

export function listHooks(set: HookSet, event?: EventName): NormalizedHook[] {
  const all = [...set.config, ...set.functions.values()];
  return event ? all.filter((h) => h.event === event) : all;
}

export function replaceConfigHooks(set: HookSet, hooks: readonly NormalizedHook[]): void {
  for (const h of set.config) set.compiled.delete(h);
  set.config.length = 0;
  for (const h of withBuiltins(hooks, set.builtins)) set.config.push(h);
  set.index = undefined;
}

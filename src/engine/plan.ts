/**
 * Plan stage: which hooks run for one firing. Built once per registry change into a
 * per-event index so the hot path is a map lookup: exact-name matchers live in a Map,
 * only regex and match-all entries are scanned, and the outcome of that scan is remembered
 * per matcher value in an LRU (tool names repeat; a regex need not run again for the same one).
 * On a miss of that memo, one combined linear-time automaton per event answers "no regex
 * matcher passes" in a single pass, so a miss among 1,000 regex matchers costs one test,
 * not 1,000; only when it says "some pass" are the matchers tested one by one.
 *
 * A hook's planned entry (compiled matcher and rule, its position) is kept per hook object, so
 * rebuilding the index after a registration is a walk over the hooks, not a recompilation, and
 * allocates only for the hooks that are new or moved. A registry holds thousands of hooks, all
 * alive at once, so what each one costs in objects is what the garbage collector copies.
 *
 * `if` rules are parsed and matched through src/matching/rule-slot.ts, not a static import: the
 * rule module brings the shell parser and picomatch, which dispatch and run load only when a hook
 * has an `if`. An index built before that module is loaded marks such hooks `unloaded`
 * (PlanIndex.unloadedRules); the engine loads it and rebuilds before planning (hooks.ts readyIndex).
 */
import { createRequire } from 'node:module';
import type { LRUCache } from 'lru-cache';
import { eventFacts, matcherValue, type EventName } from '../events/facts.js';
import type { EventFacts } from '../events/spec.js';
import { MAX_REGEX_MATCH_LENGTH, type CompiledMatcher } from '../matching/matcher.js';
import { compileMatcherFor } from '../matching/modes.js';
import type { Rule } from '../matching/if-rule.js';
import { ifRules } from '../matching/rule-slot.js';

export { ensureIfRules } from '../matching/lazy-rules.js';
import { compileAny, type LinearRegex } from '../matching/linear-regex.js';
import type { NormalizedHook } from '../types.js';
import { firingKeyFor } from '../config/registry.js';

export interface PlannedHook {
  hook: NormalizedHook;
  /** Position in config order (merges are deterministic in this order). */
  seq: number;
  matcher: CompiledMatcher;
  /**
   * undefined: no `if`; null: an `if` that can never run (invalid rule or non-tool event);
   * `unloaded`: the rule module could not be loaded, `refused`: the rule cannot be matched in
   * linear time; either way the rule is not decided (see `undecided`).
   */
  rule?: Rule | UnloadedRule | RefusedRule | null;
  /**
   * Hooks matched for one firing with an equal key run once (config/registry.ts firingKeyFor).
   * Worked out on the first firing that matched this hook with another one: most never need it,
   * and building it for every hook at every rebuild was a string per registration.
   */
  firingKey: string | undefined;
}

interface EventIndex {
  all: PlannedHook[]; // match-all + regex + invalid, in seq order
  /** One hook, or several in seq order, per exact name: most names have one hook, and need no array. */
  exact: Map<string, PlannedHook | PlannedHook[]>;
  /** Hooks whose matcher tests another payload field (hook.matchField); never memoized. */
  fields: PlannedHook[];
  count: number;
  /** Entries of `all` whose matcher passes, by matcher value (least recently used dropped first). */
  scanned?: LRUCache<string, readonly PlannedHook[]>;
  /** Memo misses so far: the memo (and lru-cache) starts at the second, a one-event process never needs it. */
  misses: number;
  /** The same for a missing matcher value. */
  scannedMissing?: readonly PlannedHook[];
  /** The last value answered and its answer: repeated tool names skip even the LRU's bookkeeping. */
  lastValue?: string;
  lastResult?: readonly PlannedHook[];
  /** Combined automata over the linear regex matchers of `all`; built on the first memo miss. */
  anyRegex?: LinearRegex[] | null;
  /** The entries of `all` the automata do not cover, in seq order (what a miss still tests). */
  unindexed?: PlannedHook[];
}

/** Distinct matcher values remembered per event. */
const MAX_SCANNED_VALUES = 4096;
/** Regex matchers per combined automaton: bigger ones cost more to compile than they save. */
const REGEXES_PER_AUTOMATON = 512;
/** Below this many regex matchers, testing them one by one is as cheap as the automaton. */
const MIN_REGEXES_FOR_AUTOMATON = 4;

/** An `if` written on a hook while the rule module (rule-slot.ts) is not loaded: never cached. */
interface UnloadedRule {
  readonly kind: 'unloaded';
  readonly source: string;
}

/** An `if` the linear-time engine cannot match (an extglob negation): never matched by a backtracking one. */
interface RefusedRule {
  readonly kind: 'refused';
  readonly source: string;
  readonly reason: string;
}

/**
 * The planned entry per hook object from the last build (hooks are immutable once normalized);
 * owned by the engine. Reused as it is while the hook keeps its position; planned entries are
 * never changed once built (but for the key filled in on first use), so a firing still holding
 * one from an older index sees the same values.
 */
export type CompiledHooks = Map<NormalizedHook, PlannedHook>;

export interface PlanIndex {
  byEvent: Map<EventName, EventIndex>;
  size: number;
  /** Some hook's `if` waits for the rule module: load it (hooks.ts readyIndex) and rebuild. */
  unloadedRules: boolean;
  /** The files the hooks' reviews cover, which the agent may not write (guarded-files.ts). */
  guarded: ReadonlySet<string>;
}

const NO_HOOKS: readonly PlannedHook[] = Object.freeze([]);

/**
 * Why the engine cannot tell whether this hook applies, if it cannot: a matcher refused as
 * unbounded (matcher.ts), an `if` refused so (file-pattern.ts) or whose rule module did not load. Such a hook is planned but
 * not run: it reports this as its error (execute.ts), and on an event that can block it denies
 * whatever its failure policy (firing.ts), since running it where it may not apply could let an
 * allow or a rewrite through.
 */
export function undecided(planned: PlannedHook): string | undefined {
  if (planned.matcher.refused) return planned.matcher.refused;
  if (planned.rule?.kind === 'refused') return planned.rule.reason;
  if (planned.rule?.kind === 'unloaded')
    return `\`if\` ${JSON.stringify(planned.rule.source)} could not be decided: the rule module did not load`;
  return undefined;
}

export function buildPlanIndex(hooks: readonly NormalizedHook[], compiled?: CompiledHooks): PlanIndex {
  const byEvent = new Map<EventName, EventIndex>();
  let unloadedRules = false;
  const guarded = new Set<string>();
  hooks.forEach((hook, seq) => {
    for (const f of hook.guards ?? []) guarded.add(f);
    // Switched off (`"enabled": false`): the one place a disabled hook is left out of every firing.
    if (hook.handler.enabled === false) return;
    const spec = eventFacts(hook.event);
    let index = byEvent.get(hook.event);
    if (!index) {
      index = { all: [], exact: new Map(), fields: [], count: 0, misses: 0 };
      byEvent.set(hook.event, index);
    }
    const known = compiled?.get(hook);
    let planned: PlannedHook;
    if (known?.seq === seq) planned = known;
    else if (known) planned = { hook, seq, matcher: known.matcher, rule: known.rule, firingKey: known.firingKey };
    else {
      const { matcher, rule } = compileHook(hook, spec);
      planned = { hook, seq, matcher, rule, firingKey: undefined };
    }
    if (planned.rule?.kind === 'unloaded') unloadedRules = true;
    else if (planned !== known) compiled?.set(hook, planned);
    const { matcher } = planned;
    index.count++;
    if (hook.matchField) {
      index.fields.push(planned);
      return;
    }
    // Hooks that see another agent's tool names (bridge.matchValue) cannot use the canonical-name index.
    if (matcher.kind === 'exact' && matcher.names && !hook.bridge?.matchValue) {
      for (const name of matcher.names) {
        const prior = index.exact.get(name);
        if (prior === undefined) index.exact.set(name, planned);
        else if (Array.isArray(prior)) prior.push(planned);
        else index.exact.set(name, [prior, planned]);
      }
    } else {
      index.all.push(planned);
    }
  });
  return { byEvent, size: hooks.length, unloadedRules, guarded };
}

function compileHook(
  hook: NormalizedHook,
  spec: EventFacts,
): { matcher: CompiledMatcher; rule: Rule | UnloadedRule | RefusedRule | null | undefined } {
  // Events without matcher support ignore the matcher (it is silently ignored per the reference).
  // A dialect hook keeps its agent's matcher rules (hook.matcherMode).
  // A hook with its own match field (Kimi's UserPromptSubmit) keeps its matcher where the catalog has none.
  const matcher =
    spec.matcher || hook.matchField
      ? compileMatcherFor(hook.matcher, hook.matcherMode, spec.matcher?.exactSet)
      : compileMatcherFor(undefined);
  let rule: Rule | UnloadedRule | RefusedRule | null | undefined;
  if (hook.handler.if !== undefined) {
    const rules = ifRules<Rule>();
    if (!spec.ifCondition) rule = null;
    else if (!rules) rule = { kind: 'unloaded', source: String(hook.handler.if) };
    else {
      const parsed = rules.parseRule(hook.handler.if);
      const source = String(hook.handler.if);
      rule = parsed.ok ? parsed.rule : parsed.unbounded ? { kind: 'refused', source, reason: `\`if\` ${parsed.error}` } : null;
    }
  }
  return { matcher, rule };
}

export interface PlanContext {
  cwd: string;
  homeDir?: string;
  projectDir?: string;
  /**
   * `if` path rules compare names ignoring case: a guard's `Edit(.env)` must see `.ENV` where
   * both name one file. Matching more only runs the hook more often.
   */
  foldCase?: boolean;
}

/** Matched hooks for one firing, in config order. */
export function planHooks(index: PlanIndex, event: EventName, input: Record<string, unknown>, ctx: PlanContext): readonly PlannedHook[] {
  const entry = index.byEvent.get(event);
  if (!entry) return NO_HOOKS;
  const value = matcherValue(event, input);
  const exact = value !== undefined ? entry.exact.get(value) : undefined;
  const scanned = entry.all.length === 0 ? NO_HOOKS : scan(entry, value);
  const fields = entry.fields.length === 0 ? NO_HOOKS : entry.fields.filter((p) => p.matcher.test(fieldValue(input, p.hook.matchField!)));
  if (!exact && scanned.length === 0 && fields.length === 0) return NO_HOOKS;

  let out: PlannedHook[] | undefined;
  const admit = (planned: PlannedHook) => {
    if (!admits(planned, input, ctx)) return;
    out ??= [];
    out.push(planned);
  };
  for (const planned of scanned) admit(planned);
  if (Array.isArray(exact)) {
    for (const planned of exact) if (matcherPasses(planned, value)) admit(planned);
  } else if (exact && matcherPasses(exact, value)) admit(exact);
  for (const planned of fields) admit(planned);
  if (!out) return NO_HOOKS;
  if ((exact ? 1 : 0) + (scanned.length > 0 ? 1 : 0) + (fields.length > 0 ? 1 : 0) > 1) out.sort((a, b) => a.seq - b.seq);
  // One command matched through several groups (or several exact names) runs once.
  return out.length > 1 ? dedupeFiring(out) : out;
}

/** Past its matcher: the hook's `if` passes on this input, and it applies to this project. */
export function admits(planned: PlannedHook, input: Record<string, unknown>, ctx: PlanContext): boolean {
  if (planned.rule === null) return false;
  if (planned.rule && !ruleMatches(planned.rule, input, ctx)) return false;
  const only = planned.hook.projectDir;
  return only === undefined || only === ctx.projectDir || only === ctx.cwd;
}

/** Every hook of `event` whose matcher reads the matcher field (not another field), in config order. */
export function eventHooks(index: PlanIndex, event: EventName): PlannedHook[] {
  const entry = index.byEvent.get(event);
  if (!entry) return [];
  const out = new Set<PlannedHook>(entry.all);
  for (const v of entry.exact.values()) for (const p of Array.isArray(v) ? v : [v]) out.add(p);
  return [...out].sort((a, b) => a.seq - b.seq);
}

/** Does the hook's matcher (read by its own dialect's rules and tool names) select this value? */
export function selects(planned: PlannedHook, value: string): boolean {
  return matcherPasses(planned, value);
}

/** A payload field as matcher text: strings as they are, anything else absent. */
function fieldValue(input: Record<string, unknown>, field: string): string | undefined {
  const v = input[field];
  return typeof v === 'string' ? v : undefined;
}

function matcherPasses(planned: PlannedHook, value: string | undefined): boolean {
  const toValue = planned.hook.bridge?.matchValue;
  return planned.matcher.test(toValue && value !== undefined ? toValue(planned.hook, value) : value);
}

/** The `all` entries whose matcher passes for `value`; matchers are pure, so the answer is kept. */
function scan(entry: EventIndex, value: string | undefined): readonly PlannedHook[] {
  if (value !== undefined && value === entry.lastValue) return entry.lastResult!;
  const known = value === undefined ? entry.scannedMissing : entry.scanned?.get(value);
  if (known) return remember(entry, value, known);
  // A regex never matches a missing value, and the automaton says when none matches this one.
  const regexesMayPass = value !== undefined && anyRegexPasses(entry, value);
  const candidates = regexesMayPass || !entry.unindexed ? entry.all : entry.unindexed;
  const passed = candidates.filter((planned) => matcherPasses(planned, value));
  const result = passed.length > 0 ? passed : NO_HOOKS;
  // Only short values are kept (tool names, agent types, sources); anything else is recomputed.
  if (value === undefined) entry.scannedMissing = result;
  else if (value.length <= 256 && ++entry.misses > 1) {
    entry.scanned ??= newMemo();
    entry.scanned.set(value, result);
  }
  return remember(entry, value, result);
}

function remember(entry: EventIndex, value: string | undefined, result: readonly PlannedHook[]): readonly PlannedHook[] {
  if (value !== undefined && value.length <= 256) {
    entry.lastValue = value;
    entry.lastResult = result;
  }
  return result;
}

/** A regex matcher the combined automaton covers: linear, and tested on the value as given. */
function isIndexedRegex(planned: PlannedHook): boolean {
  return planned.matcher.linear !== undefined && !planned.hook.bridge?.matchValue;
}

function anyRegexPasses(entry: EventIndex, value: string): boolean {
  if (entry.anyRegex === undefined) {
    entry.anyRegex = buildAutomata(entry.all);
    if (entry.anyRegex) entry.unindexed = entry.all.filter((p) => !isIndexedRegex(p));
  }
  if (entry.anyRegex === null) return true;
  const v = value.length > MAX_REGEX_MATCH_LENGTH ? value.slice(0, MAX_REGEX_MATCH_LENGTH) : value;
  return entry.anyRegex.some((re) => re.test(v));
}

/** Null when there are too few regexes to gain, or RE2 refused a combination (then all are tested). */
function buildAutomata(all: readonly PlannedHook[]): LinearRegex[] | null {
  const sources = all.filter(isIndexedRegex).map((p) => p.matcher.linear!);
  if (sources.length < MIN_REGEXES_FOR_AUTOMATON) return null;
  const automata: LinearRegex[] = [];
  for (let i = 0; i < sources.length; i += REGEXES_PER_AUTOMATON) {
    const re = compileAny(sources.slice(i, i + REGEXES_PER_AUTOMATON));
    if (!re) return null;
    automata.push(re);
  }
  return automata;
}

const require = createRequire(import.meta.url);
function newMemo(): LRUCache<string, readonly PlannedHook[]> {
  const { LRUCache: Lru } = require('lru-cache') as typeof import('lru-cache');
  return new Lru<string, readonly PlannedHook[]>({ max: MAX_SCANNED_VALUES });
}

/** Like Claude Code's `new Map(...)` over the matched hooks: first position, last occurrence's hook. */
function dedupeFiring(list: PlannedHook[]): PlannedHook[] {
  const at = new Map<string, number>();
  const out: PlannedHook[] = [];
  for (const planned of list) {
    planned.firingKey ??= firingKeyFor(planned.hook);
    const i = at.get(planned.firingKey);
    if (i === undefined) {
      at.set(planned.firingKey, out.length);
      out.push(planned);
    } else out[i] = planned;
  }
  return out.length === list.length ? list : out;
}

function ruleMatches(rule: Rule | UnloadedRule | RefusedRule, input: Record<string, unknown>, ctx: PlanContext): boolean {
  // Not decided (the rule module did not load, or refused): planned, so that it fails closed (`undecided`), never skipped.
  if (rule.kind === 'unloaded' || rule.kind === 'refused') return true;
  const rules = ifRules<Rule>();
  if (!rules) return true;
  const toolName = typeof input.tool_name === 'string' ? input.tool_name : '';
  const toolInput = input.tool_input;
  const cwd = typeof input.cwd === 'string' && input.cwd ? input.cwd : ctx.cwd;
  try {
    return rules.matchRule(rule, toolName, toolInput, {
      cwd,
      homeDir: ctx.homeDir,
      projectDir: ctx.projectDir,
      // An `if` guards: names compare ignoring case everywhere, as Claude Code's do (file-pattern.ts).
      ignoreCase: true,
      ...(ctx.foldCase ? { foldCase: true } : {}),
    });
  } catch {
    return true; // best-effort filter: fail open, as the reference says for unparsable commands
  }
}

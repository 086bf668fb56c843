/**
 * Event matchers, Claude Code rules (reference "Matcher patterns"):
 *   - `*`, empty or omitted            → match all
 *   - only exact-set characters        → exact name, or a list split on `|` (and `,` in the
 *                                        standard set) with surrounding whitespace trimmed
 *   - anything else                    → unanchored regular expression, tested like `.test`
 * An invalid regular expression never matches; `error` carries the reason for `check`.
 *
 * Regexes run on a linear-time engine (linear-regex.ts), so no matcher and no value can stall
 * the engine. A pattern RE2 cannot express (backreference, lookaround) never runs on a
 * backtracking engine (`^(?=x)(a|a)*$` took minutes on 36 characters): it is refused, `refused`
 * says why (a config error on every load: src/lint/hooks.ts), and the hook is planned for
 * every value and reports that error instead of running: on an event that can block the engine
 * denies (fails closed, whatever the failure policy), elsewhere its failure policy applies
 * (never silently skipped: a guard that never matched would fail open).
 */
import { compileLinear } from './linear-regex.js';

export type ExactSet = 'standard' | 'narrow';

export interface CompiledMatcher {
  kind: 'all' | 'exact' | 'regex' | 'invalid';
  /** True when the event's value matches. `undefined` (field missing) matches only kind 'all'. */
  test(value: string | undefined): boolean;
  /** Why an 'invalid' matcher never matches. */
  error?: string;
  /** The matcher text as written (absent when omitted). */
  source?: string;
  /** For kind 'exact': the names, in the order written, without duplicates. */
  names?: readonly string[];
  /** For kind 'regex' on the linear-time engine: the pattern in RE2 syntax (matcher index). */
  linear?: string;
  /** For kind 'regex': why the pattern cannot be run in linear time; `test` then passes everything. */
  refused?: string;
}

/**
 * Longest value a regex matcher is tested against; longer values are cut to this length.
 * Matched values are tool names, agent types, file basenames and similar short strings, so
 * the cap changes nothing real; it keeps a linear pass short.
 */
export const MAX_REGEX_MATCH_LENGTH = 1024;

// Standard set: letters, digits, `_`, `-`, space, `,`, `|`. Narrow (FileChanged, StopFailure): no `-`, space or `,`.
const STANDARD_EXACT = /^[A-Za-z0-9_\- ,|]+$/;
const NARROW_EXACT = /^[A-Za-z0-9_|]+$/;

const MATCH_ALL: CompiledMatcher = Object.freeze({ kind: 'all', test: () => true }) as CompiledMatcher;

export function compileMatcher(matcher: string | undefined, exactSet: ExactSet = 'standard'): CompiledMatcher {
  if (matcher === undefined || matcher === null) return MATCH_ALL;
  if (typeof matcher !== 'string') {
    // Config validation should have caught this; never throw from the matching stage.
    return { kind: 'invalid', test: () => false, error: `matcher must be a string, got ${typeof matcher}` };
  }
  const source = matcher;
  // Whitespace-only and `*` with surrounding whitespace are read as "all" (nothing to compare).
  const trimmed = matcher.trim();
  if (trimmed === '' || trimmed === '*') return { kind: 'all', test: () => true, source };

  const exact = exactSet === 'narrow' ? NARROW_EXACT : STANDARD_EXACT;
  if (exact.test(matcher)) {
    const separators = exactSet === 'narrow' ? /\|/ : /[|,]/;
    // One name (the common case) needs no split.
    const names = separators.test(matcher) ? splitNames(matcher, separators) : [trimmed];
    if (names.length === 0) {
      return { kind: 'invalid', test: () => false, error: `matcher ${JSON.stringify(matcher)} names nothing (only separators)`, source };
    }
    return exactMatcher(names, source);
  }

  return compileRegexMatcher(source, matcher);
}

/** Lists longer than this are looked up in a Set; shorter ones (nearly all) are compared in place. */
const MAX_LISTED_NAMES = 16;

/**
 * An exact-name matcher. `test` is a method on one shared prototype, not a closure per matcher,
 * and a short list keeps no Set: a registry holds thousands of matchers, all alive at once, and
 * every object each one costs is one more the garbage collector copies.
 */
class ExactMatcher implements CompiledMatcher {
  readonly kind = 'exact';
  readonly names: readonly string[];
  readonly source: string | undefined;
  readonly #set: ReadonlySet<string> | undefined;
  constructor(names: readonly string[], source: string | undefined) {
    this.names = names;
    this.source = source;
    this.#set = names.length > MAX_LISTED_NAMES ? new Set(names) : undefined;
  }
  test(value: string | undefined): boolean {
    if (value === undefined) return false;
    return this.#set ? this.#set.has(value) : this.names.includes(value);
  }
}

/** An exact matcher for `names` (non-empty, without duplicates); `source` is the text as written. */
export function exactMatcher(names: readonly string[], source: string | undefined): CompiledMatcher {
  return new ExactMatcher(names, source);
}

/** The names of an exact list, trimmed, empty ones dropped, each once, in the order written. */
function splitNames(matcher: string, separators: RegExp): string[] {
  return [
    ...new Set(
      matcher
        .split(separators)
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
}

/** A regex matcher for `pattern` (`source` is the text as written, for messages). */
export function compileRegexMatcher(source: string, pattern: string): CompiledMatcher {
  const linear = compileLinear(pattern);
  if (linear.ok) {
    const { re } = linear;
    return { kind: 'regex', test: (v) => typeof v === 'string' && re.test(cut(v, MAX_REGEX_MATCH_LENGTH)), source, linear: linear.source };
  }
  if (!linear.unsupported) {
    return { kind: 'invalid', test: () => false, error: `invalid regular expression ${JSON.stringify(source)}: ${linear.error}`, source };
  }
  const refused = `matcher ${JSON.stringify(source)} cannot be matched in bounded time: ${linear.error}`;
  return { kind: 'regex', test: () => true, source, refused };
}

function cut(v: string, max: number): string {
  return v.length > max ? v.slice(0, max) : v;
}

/**
 * Event matchers, Claude Code rules (reference "Matcher patterns"):
 *   - `*`, empty or omitted            → match all
 *   - only exact-set characters        → exact name, or a list split on `|` (and `,` in the
 *                                        standard set) with surrounding whitespace trimmed
 *   - anything else                    → unanchored JavaScript RegExp, tested with `.test`
 * An invalid regular expression never matches; `error` carries the reason for `check`.
 */

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
}

/**
 * Longest value a regex matcher is tested against; longer values are cut to this length.
 * Matched values are tool names, agent types, file basenames and similar short strings, so
 * the cap changes nothing real, while it bounds what a backtracking-prone matcher such as
 * `(a+)+$` can cost. (It bounds, it does not remove: JavaScript has no regex timeout.)
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
    const names = [...new Set(matcher.split(separators).map((s) => s.trim()).filter((s) => s !== ''))];
    if (names.length === 0) {
      return { kind: 'invalid', test: () => false, error: `matcher ${JSON.stringify(matcher)} names nothing (only separators)`, source };
    }
    const set = new Set(names);
    return {
      kind: 'exact',
      // A single name is the common case; skip the Set lookup for it.
      test: names.length === 1 ? (v) => v === names[0] : (v) => v !== undefined && set.has(v),
      source,
      names,
    };
  }

  let re: RegExp;
  try {
    re = new RegExp(matcher);
  } catch (err) {
    const error = `invalid regular expression ${JSON.stringify(matcher)}: ${err instanceof Error ? err.message : String(err)}`;
    return { kind: 'invalid', test: () => false, error, source };
  }
  return {
    kind: 'regex',
    test: (v) => {
      if (typeof v !== 'string') return false;
      return re.test(v.length > MAX_REGEX_MATCH_LENGTH ? v.slice(0, MAX_REGEX_MATCH_LENGTH) : v);
    },
    source,
  };
}

/**
 * Regular expressions that cannot stall the engine. Matchers and `if` globs run on re2js, a
 * port of RE2: its automata match in time linear in the input, whatever the pattern. RE2 has
 * no backreferences and no lookaround; a pattern that needs them is "unsupported" and its
 * caller refuses it (matcher.ts, file-pattern.ts): nothing falls back to a backtracking engine.
 *
 * re2js is loaded on the first pattern that needs it (synchronously, through require), so
 * configs with exact-name matchers only start without it.
 */
import { createRequire } from 'node:module';

/** The part of a compiled re2js pattern used here. */
export interface LinearRegex {
  /** True when the pattern matches somewhere in `input` (RegExp#test semantics). */
  test(input: string): boolean;
}

export type LinearCompileResult =
  | { ok: true; re: LinearRegex /** The pattern in RE2 syntax (for combined automata). */; source: string }
  | { ok: false; unsupported: true; error: string }
  | { ok: false; unsupported: false; error: string };

type Re2Module = typeof import('re2js');
const require = createRequire(import.meta.url);
let loaded: Re2Module | undefined;
function re2(): Re2Module {
  loaded ??= require('re2js') as Re2Module;
  return loaded;
}

/**
 * Compile a JavaScript regex source for the linear-time engine. `unsupported: true` when
 * JavaScript accepts the pattern but RE2 cannot express it (backreference, lookahead,
 * lookbehind); `unsupported: false` when it is not a valid regular expression at all.
 */
export function compileLinear(pattern: string, opts: { ignoreCase?: boolean } = {}): LinearCompileResult {
  try {
    new RegExp(pattern);
  } catch (err) {
    return { ok: false, unsupported: false, error: err instanceof Error ? err.message : String(err) };
  }
  const { RE2JS } = re2();
  try {
    const source = RE2JS.translateRegExp(pattern);
    const re = RE2JS.compile(source, opts.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
    return { ok: true, re, source: opts.ignoreCase ? `(?i:${source})` : source };
  } catch (err) {
    return {
      ok: false,
      unsupported: true,
      error: `the linear-time engine cannot run it (${err instanceof Error ? err.message : String(err)})`,
    };
  }
}

/**
 * One automaton for many patterns: true when any of them matches. Used to answer "none of
 * these 1,000 matchers" in one linear pass instead of 1,000. Undefined when RE2 refuses the
 * combination (program too large); callers then test the patterns one by one.
 */
export function compileAny(sources: readonly string[]): LinearRegex | undefined {
  if (sources.length === 0) return undefined;
  const { RE2JS } = re2();
  try {
    return RE2JS.compile(sources.map((s) => `(?:${s})`).join('|'));
  } catch {
    return undefined;
  }
}

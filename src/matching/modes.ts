/**
 * Matchers of the other agents' dialects (see MatcherMode in types.ts). Claude's own rules stay
 * in matcher.ts; this only adds the variants a dialect loader can ask for on a hook.
 */
import type { MatcherMode } from '../types.js';
import { compileMatcher, compileRegexMatcher, exactMatcher, type CompiledMatcher, type ExactSet } from './matcher.js';

const MATCH_ALL: CompiledMatcher = Object.freeze({ kind: 'all', test: () => true }) as CompiledMatcher;

function regexMatcher(source: string, pattern: string, onInvalid: 'never' | 'exact'): CompiledMatcher {
  const compiled = compileRegexMatcher(source, pattern);
  if (compiled.kind === 'invalid' && onInvalid === 'exact') {
    return exactMatcher([source], source);
  }
  return compiled;
}

/**
 * Compile a matcher under a dialect's rules. `exactSet` is the event's Claude exact set, used
 * only by mode `claude`. Never throws: a bad pattern yields kind 'invalid' (or exact, where the
 * dialect falls back to comparison).
 */
export function compileMatcherFor(
  matcher: string | undefined,
  mode: MatcherMode = 'claude',
  exactSet: ExactSet = 'standard',
): CompiledMatcher {
  if (mode === 'claude') return compileMatcher(matcher, exactSet);
  if (mode === 'claude-narrow') return compileMatcher(matcher, 'narrow');
  if (matcher === undefined || matcher === null) return MATCH_ALL;
  if (typeof matcher !== 'string') {
    return { kind: 'invalid', test: () => false, error: `matcher must be a string, got ${typeof matcher}` };
  }
  const source = matcher;
  switch (mode) {
    case 'exact': {
      const trimmed = matcher.trim();
      if (trimmed === '' || trimmed === '*') return { kind: 'all', test: () => true, source };
      return exactMatcher([trimmed], source);
    }
    case 'regex-or-exact': {
      // Gemini trims the matcher; empty and `*` match everything.
      const trimmed = matcher.trim();
      if (trimmed === '' || trimmed === '*') return { kind: 'all', test: () => true, source };
      return regexMatcher(trimmed, trimmed, 'exact');
    }
    case 'regex-anchored': {
      if (matcher === '' || matcher === '*') return { kind: 'all', test: () => true, source };
      return regexMatcher(source, `^(?:${matcher})$`, 'never');
    }
    default: {
      // Kimi: missing or empty matches all; everything else is a regex, invalid never matches.
      // Droid (`regex-star`) also reads `*` as all, where a regex would be invalid.
      if (matcher === '' || (mode === 'regex-star' && matcher === '*')) return { kind: 'all', test: () => true, source };
      return regexMatcher(source, matcher, 'never');
    }
  }
}

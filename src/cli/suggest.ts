/**
 * "Did you mean" for names typed on the command line: the closest by edit distance (as
 * `check` suggests config keys), else the names that start with, then contain, what was typed
 * (`PreTool` → PreToolUse), at most three.
 */
import { closest } from '../util/did-you-mean.js';

export function suggest(word: string, candidates: readonly string[]): string[] {
  const near = closest(word, candidates);
  if (near !== undefined) return [near];
  const lower = word.toLowerCase();
  if (lower.length < 3) return [];
  const prefixed = candidates.filter((c) => c.toLowerCase().startsWith(lower));
  if (prefixed.length > 0) return prefixed.slice(0, 3);
  return candidates.filter((c) => c.toLowerCase().includes(lower)).slice(0, 3);
}

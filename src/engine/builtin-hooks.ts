/**
 * Hooks the engine brings itself, each off by default and switched on by the host
 * (`builtinHooks`). They are ordinary hooks added to the config hooks, so they are planned,
 * matched, run and reduced like any other; nothing here decides.
 *
 * codeReview: Blade's code-review prompt hook — after each file edit a model reviews the change
 * and a clear defect is fed back to the agent (PostToolUse cannot undo the edit). On only while
 * the config has no PostToolUse hook of its own: a user who writes PostToolUse hooks has taken
 * that event over. The same hook is the `code-review` preset (presets/code-review), for
 * settings files; a test keeps the two equal.
 */
import type { NormalizedHook } from '../types.js';

export interface BuiltinHooks {
  /** The code-review prompt hook on PostToolUse for Edit/Write/MultiEdit/NotebookEdit (and each file of an ApplyPatch). */
  codeReview?: boolean;
}

export const CODE_REVIEW_MATCHER = 'Edit|Write|MultiEdit|NotebookEdit';
export const CODE_REVIEW_TIMEOUT = 30;
export const CODE_REVIEW_PROMPT = [
  'Review the code change an AI coding agent just made. The tool call and its result are this JSON: $ARGUMENTS',
  'Answer ok: false, with the defect and the fix in one or two sentences, only for a clear defect the agent should fix now:',
  'a bug, a security hole (injection, a secret written into code, unsafe deserialization), data loss, or code that cannot work as written.',
  'Style, naming, missing tests and matters of taste are not defects. Otherwise answer ok: true.',
].join('\n');

/** The events a switched-on built-in may fire on (dispatch's no-hooks fast path asks, before any engine). */
export function builtinHookEvents(builtins: unknown): string[] {
  const on = typeof builtins === 'object' && builtins !== null && (builtins as BuiltinHooks).codeReview === true;
  return on ? ['PostToolUse'] : [];
}

/** The config hooks with the switched-on built-ins appended. */
export function withBuiltins(hooks: readonly NormalizedHook[], builtins: BuiltinHooks | undefined): NormalizedHook[] {
  const all = [...hooks];
  if (builtins?.codeReview && !hooks.some((h) => h.event === 'PostToolUse')) {
    all.push({
      id: 'builtin:codeReview',
      event: 'PostToolUse',
      matcher: CODE_REVIEW_MATCHER,
      // Fed back to the agent (continueOnBlock), which goes on to fix it: a review never ends the turn.
      handler: { type: 'prompt', prompt: CODE_REVIEW_PROMPT, timeout: CODE_REVIEW_TIMEOUT, continueOnBlock: true },
      source: { kind: 'builtin', path: 'builtinHooks.codeReview' },
      dedupKey: `\0builtin:codeReview`,
    });
  }
  return all;
}

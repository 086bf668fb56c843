/**
 * What the flat `{"version": 1, "hooks": {"<event>": [entry]}}` readers share: Cursor's
 * hooks.json (src/agents/cursor/reader.ts) and Copilot CLI's .github/hooks/*.json
 * (src/agents/copilot/reader.ts). Entries carry their own matcher (where the agent has one).
 */
import type { NormalizedHook } from '../../types.js';
import { isObject } from './facts.js';
import { canonicalMatcher, checkKeys, Diags, targetMatcher, type LossLog } from './reader.js';
import type { Dialect, ParseContext } from '../types.js';

export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export interface Top {
  diags: Diags;
  events: Record<string, unknown> | undefined;
  ok: boolean;
}

export function readTop(dialect: Dialect, doc: unknown, ctx: ParseContext): Top {
  const diags = new Diags(ctx.file);
  if (!isObject(doc)) {
    diags.error([], 'expected a JSON object');
    return { diags, events: undefined, ok: false };
  }
  checkKeys(doc, ['version', 'hooks', '$schema'], [], diags, 'warning', 'key', dialect.title);
  if (doc.version === undefined) diags.warn(['version'], `missing "version": 1 (${dialect.title} requires it in project hook files)`);
  else if (doc.version !== 1) diags.error(['version'], `expected 1, got ${JSON.stringify(doc.version)}`);
  if (doc.hooks === undefined) return { diags, events: undefined, ok: diags.ok };
  if (!isObject(doc.hooks)) {
    diags.error(['hooks'], `expected an object of events, got ${Array.isArray(doc.hooks) ? 'array' : typeof doc.hooks}`);
    return { diags, events: undefined, ok: false };
  }
  return { diags, events: doc.hooks, ok: diags.ok };
}

/** The matchers to write for a hook on `native`; undefined = the hook cannot be written. */
export function flatMatchers(
  hook: NormalizedHook,
  target: Dialect,
  matcherEvents: ReadonlySet<string>,
  native: string,
  log: LossLog,
): Array<string | undefined> | undefined {
  const shape = canonicalMatcher(hook);
  if (shape.kind === 'all') return [undefined];
  if (!matcherEvents.has(native)) {
    log.field(
      hook,
      `${target.title} has no matcher on ${native}; matcher ${JSON.stringify(hook.matcher)} left out (the hook runs for every ${native})`,
    );
    return [undefined];
  }
  if ((hook.dialect ?? 'claude') === target.name && hook.dialectData?.impliedMatcher === undefined) return [hook.matcher];
  const w = targetMatcher(shape, target, hook.event, hook.dialect);
  if (w.impossible) {
    log.hook(hook, w.loss ?? 'matcher cannot be expressed');
    return undefined;
  }
  if (w.loss) log.field(hook, w.loss);
  if (w.note) log.field(hook, w.note);
  return w.matchers;
}

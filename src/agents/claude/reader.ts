/** Claude Code settings.json: parsed by the native loader, written from any dialect's hooks. */
import { loadSettingsText } from '../../config/settings.js';
// Foreign Claude-shaped documents are checked by zod itself: the schema module fills the slot.
import '../../config/schema.js';
import type { Diagnostic, HookHandler, NormalizedHook } from '../../types.js';
import { claude } from './facts.js';
import type { Dialect } from '../types.js';
import type { ParseContext, ParseResult, SerializeResult } from '../types.js';
import { canonicalMatcher, lossLog, reportDataLosses, sortedJson, targetMatcher, timeoutOut, type LossLog } from '../shared/reader.js';

export async function parseClaude(doc: unknown, ctx: ParseContext): Promise<ParseResult> {
  const diagnostics: Diagnostic[] = [];
  const layer = loadSettingsText(ctx.kind, ctx.file, JSON.stringify(doc ?? {}), diagnostics);
  return { hooks: layer.hooks, diagnostics, ok: layer.data !== undefined };
}

export interface GroupEntry {
  event: string;
  matcher?: string;
  /** Group-level fields besides matcher (Gemini's `sequential`). */
  group?: Record<string, unknown>;
  handler: Record<string, unknown>;
}

/** `{Event: [{matcher, ...group, hooks: [...]}]}`, merging consecutive entries of one group. */
export function buildGroups(entries: readonly GroupEntry[]): Record<string, Array<Record<string, unknown>>> {
  const hooks: Record<string, Array<Record<string, unknown>>> = {};
  let last: { event: string; key: string; group: Record<string, unknown> } | undefined;
  for (const e of entries) {
    const key = JSON.stringify([e.matcher ?? null, e.group ?? null]);
    if (last && last.event === e.event && last.key === key) {
      (last.group.hooks as unknown[]).push(e.handler);
      continue;
    }
    const group: Record<string, unknown> = {
      ...(e.matcher !== undefined ? { matcher: e.matcher } : {}),
      ...(e.group ?? {}),
      hooks: [e.handler],
    };
    hooks[e.event] ??= [];
    hooks[e.event]!.push(group);
    last = { event: e.event, key, group };
  }
  return hooks;
}

/** The matchers to write for a hook in a Claude-shaped dialect; undefined = the hook cannot be written. */
export function matchersFor(hook: NormalizedHook, target: Dialect, log: LossLog): Array<string | undefined> | undefined {
  // A hook already in the target's rules keeps its matcher text byte for byte.
  if ((hook.dialect ?? 'claude') === target.name && hook.dialectData?.impliedMatcher === undefined) return [hook.matcher];
  const w = targetMatcher(canonicalMatcher(hook), target, hook.event, hook.dialect);
  if (w.impossible) {
    log.hook(hook, w.loss ?? 'matcher cannot be expressed');
    return undefined;
  }
  if (w.loss) log.field(hook, w.loss);
  if (w.note) log.field(hook, w.note);
  return w.matchers;
}

export async function serializeClaude(hooks: readonly NormalizedHook[]): Promise<SerializeResult> {
  const log = lossLog();
  const entries: GroupEntry[] = [];
  for (const hook of hooks) {
    if (hook.handler.type === 'function') {
      log.hook(hook, 'in-process function hooks have no config form');
      continue;
    }
    const matchers = matchersFor(hook, claude, log);
    if (!matchers) continue;
    const { fn: _fn, ...rest } = hook.handler as HookHandler & { fn?: unknown };
    const handler: Record<string, unknown> = { ...rest };
    const timeout = timeoutOut(hook, 's');
    if (timeout === undefined) delete handler.timeout;
    else handler.timeout = timeout;
    for (const k of Object.keys(handler)) if (handler[k] === undefined) delete handler[k];
    reportDataLosses(hook, [], log, claude.title);
    for (const matcher of matchers) entries.push({ event: hook.event, ...(matcher !== undefined ? { matcher } : {}), handler });
  }
  return { text: sortedJson({ hooks: buildGroups(entries) }), losses: log.losses };
}

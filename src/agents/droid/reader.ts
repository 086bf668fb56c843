/** Factory Droid hook files: Claude's format read by the native loader, tagged with Droid's tool vocabulary. */
import type { NormalizedHook } from '../../types.js';
import { droid } from './facts.js';
import type { ParseContext, ParseResult, SerializeResult } from '../types.js';
import { buildGroups, matchersFor, parseClaude, type GroupEntry } from '../claude/reader.js';
import { dedupKeyIn, lossLog, reportDataLosses, sortedJson, timeoutOut } from '../shared/reader.js';

export async function parseDroid(doc: unknown, ctx: ParseContext): Promise<ParseResult> {
  const r = await parseClaude(doc, ctx);
  const hooks = r.hooks.map(
    (h): NormalizedHook => ({
      ...h,
      // Droid's matcher rules, and identical hooks kept apart, as Droid runs each (Dialect.keepsIdenticalHooks).
      matcherMode: droid.matcherMode(h.event),
      dedupKey: dedupKeyIn(droid, h),
      dialect: 'droid',
      bridge: droid.bridge,
      dialectData: { ...h.dialectData, nativeEvent: h.event },
    }),
  );
  // Events Droid never fires are loaded by the Claude loader; say that Droid ignores them.
  const diagnostics = [...r.diagnostics];
  for (const e of new Set(hooks.map((h) => h.event))) {
    if (!droid.events.some((m) => m.event === e))
      diagnostics.push({
        level: 'warning',
        file: ctx.file,
        path: `hooks.${e}`,
        message: `Factory Droid has no ${e} event; these hooks never fire under Droid`,
      });
  }
  return { ...r, hooks, diagnostics };
}

export async function serializeDroid(hooks: readonly NormalizedHook[]): Promise<SerializeResult> {
  const log = lossLog();
  const entries: GroupEntry[] = [];
  for (const hook of hooks) {
    if (!droid.events.some((m) => m.event === hook.event)) {
      log.hook(hook, `Factory Droid has no equivalent of ${hook.event}`);
      continue;
    }
    if (hook.handler.type !== 'command') {
      log.hook(hook, `Factory Droid hooks are command hooks only; '${hook.handler.type}' cannot be written`);
      continue;
    }
    const matchers = matchersFor(hook, droid, log);
    if (!matchers) continue;
    const h = hook.handler;
    const handler: Record<string, unknown> = { type: 'command', command: h.command };
    const timeout = timeoutOut(hook, 's');
    if (timeout !== undefined) handler.timeout = timeout;
    for (const k of ['args', 'env', 'async', 'shell', 'if', 'statusMessage', 'once'] as const) {
      if ((h as unknown as Record<string, unknown>)[k] !== undefined) log.field(hook, `Factory Droid has no '${k}' on a hook; left out`);
    }
    reportDataLosses(hook, [], log, droid.title);
    for (const matcher of matchers) entries.push({ event: hook.event, ...(matcher !== undefined ? { matcher } : {}), handler });
  }
  return { text: sortedJson({ hooks: buildGroups(entries) }), losses: log.losses };
}

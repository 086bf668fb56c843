/**
 * Agents whose hook config is Claude's settings shape with a few differences (Auggie, Letta Code):
 * other event names, command timeouts in milliseconds, extra keys in `hooks`. The document is
 * brought to Claude's shape, read by the native loader, and each hook tagged with its agent.
 */
import type { NormalizedHook } from '../../types.js';
import { isObject } from '../../util/is-object.js';
import { buildGroups, matchersFor, parseClaude, type GroupEntry } from '../claude/reader.js';
import type { Dialect, ParseContext, ParseResult, SerializeResult } from '../types.js';
import { dedupKeyIn, lossLog, reportDataLosses, sortedJson, timeoutOut } from './reader.js';

export interface ClaudeShape {
  dialect: Dialect;
  /** Keys of `hooks` that are settings, not events (Letta's `disabled`). */
  settingKeys?: readonly string[];
  /** Handler types the agent runs. */
  handlerTypes: readonly string[];
}

function nativeOf(d: Dialect, canonical: string): string {
  return d.events.find((m) => m.event === canonical)?.native ?? canonical;
}

/** The document in Claude's shape: canonical event names, timeouts in seconds, setting keys left out. */
function toClaudeShape(doc: unknown, shape: ClaudeShape): unknown {
  if (!isObject(doc) || !isObject(doc.hooks)) return doc;
  const hooks: Record<string, unknown> = {};
  for (const [native, groups] of Object.entries(doc.hooks)) {
    if (shape.settingKeys?.includes(native)) continue;
    const event = shape.dialect.events.find((m) => m.native === native)?.event ?? native;
    hooks[event] = !Array.isArray(groups) || shape.dialect.defaults.timeoutUnit === 's' ? groups : groups.map(secondsIn);
  }
  return { ...doc, hooks };
}

function secondsIn(group: unknown): unknown {
  if (!isObject(group) || !Array.isArray(group.hooks)) return group;
  const handlers = group.hooks.map((h) => (isObject(h) && typeof h.timeout === 'number' ? { ...h, timeout: h.timeout / 1000 } : h));
  return { ...group, hooks: handlers };
}

export async function parseClaudeShaped(doc: unknown, ctx: ParseContext, shape: ClaudeShape): Promise<ParseResult> {
  const d = shape.dialect;
  const r = await parseClaude(toClaudeShape(doc, shape), ctx);
  const renamed = (path: string) => path.replace(/^hooks\.([A-Za-z]+)/, (_m, e: string) => `hooks.${nativeOf(d, e)}`);
  const hooks = r.hooks.map((h): NormalizedHook => {
    const given = h.handler.timeout !== undefined;
    const handler = given || d.defaults.timeoutSec === undefined ? h.handler : { ...h.handler, timeout: d.defaults.timeoutSec };
    return {
      ...h,
      handler,
      source: { ...h.source, path: renamed(h.source.path) },
      matcherMode: d.matcherMode(h.event),
      dedupKey: dedupKeyIn(d, h),
      dialect: d.name,
      ...(d.bridge ? { bridge: d.bridge } : {}),
      dialectData: { ...h.dialectData, nativeEvent: nativeOf(d, h.event), ...(given ? {} : { timeoutDefaulted: true }) },
    };
  });
  const diagnostics = r.diagnostics.map((x) => ({ ...x, path: renamed(x.path) }));
  for (const h of hooks) {
    if (!d.events.some((m) => m.event === h.event && m.native === h.dialectData?.nativeEvent))
      diagnostics.push({
        level: 'warning',
        file: ctx.file,
        path: h.source.path,
        message: `${d.title} has no ${h.event} event; this hook never fires under ${d.title}`,
      });
    else if (!shape.handlerTypes.includes(h.handler.type))
      diagnostics.push({
        level: 'warning',
        file: ctx.file,
        path: h.source.path,
        message: `${d.title} runs only ${shape.handlerTypes.join(' and ')} hooks; this '${h.handler.type}' hook never runs under ${d.title}`,
      });
  }
  return { ...r, hooks, diagnostics };
}

export function serializeClaudeShaped(hooks: readonly NormalizedHook[], shape: ClaudeShape): SerializeResult {
  const d = shape.dialect;
  const log = lossLog();
  const entries: GroupEntry[] = [];
  for (const hook of hooks) {
    const native = d.events.find((m) => m.event === hook.event)?.native;
    if (native === undefined) {
      log.hook(hook, `${d.title} has no equivalent of ${hook.event}`);
      continue;
    }
    if (!shape.handlerTypes.includes(hook.handler.type)) {
      log.hook(hook, `${d.title} hooks are ${shape.handlerTypes.join(' or ')} hooks; '${hook.handler.type}' cannot be written`);
      continue;
    }
    const matchers = matchersFor(hook, d, log);
    if (!matchers) continue;
    const h = hook.handler as unknown as Record<string, unknown>;
    const handler: Record<string, unknown> =
      hook.handler.type === 'command'
        ? { type: 'command', command: h.command }
        : { type: hook.handler.type, prompt: h.prompt, ...(h.model ? { model: h.model } : {}) };
    const timeout = timeoutOut(hook, d.defaults.timeoutUnit);
    if (timeout !== undefined) handler.timeout = timeout;
    for (const k of ['args', 'env', 'async', 'shell', 'if', 'statusMessage', 'once'] as const) {
      if (h[k] !== undefined) log.field(hook, `${d.title} has no '${k}' on a hook; left out`);
    }
    reportDataLosses(hook, [], log, d.title);
    for (const matcher of matchers) entries.push({ event: native, ...(matcher !== undefined ? { matcher } : {}), handler });
  }
  return { text: sortedJson({ hooks: buildGroups(entries) }), losses: log.losses };
}

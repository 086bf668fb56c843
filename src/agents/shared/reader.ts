/**
 * Config machinery shared by the dialect parsers and serializers: validation with zod into
 * path-qualified diagnostics, NormalizedHook construction, matcher and timeout translation,
 * and loss reporting. Imported lazily (it pulls in zod), never by dispatch's fast path.
 */
import type { z } from 'zod';
import { eventFacts, type EventName } from '../../events/facts.js';
import type { EventFacts } from '../../events/spec.js';
import { formatPath, valueAt } from '../../config/diagnostics.js';
import { closest } from '../../util/did-you-mean.js';
import { dedupKeyFor, keyOfItsOwn } from '../../config/registry.js';
import type { CommandHandler, Diagnostic, HookHandler, MatcherMode, NormalizedHook, Provenance } from '../../types.js';
import { getDialect } from '../all.js';
import { readMatcher, toolTable, TOOL_EVENTS, writeMatcher, type MatcherShape } from './facts.js';
import type { Dialect, EventMapping } from '../types.js';
import type { Loss, ParseContext } from '../types.js';

export type Path = ReadonlyArray<string | number>;

export class Diags {
  readonly list: Diagnostic[] = [];
  constructor(readonly file: string) {}
  error(path: Path, message: string): void {
    this.list.push({ level: 'error', file: this.file, path: formatPath(path), message });
  }
  warn(path: Path, message: string): void {
    this.list.push({ level: 'warning', file: this.file, path: formatPath(path), message });
  }
  get ok(): boolean {
    return !this.list.some((d) => d.level === 'error');
  }
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
  return typeof v;
}

/**
 * Validate `value` (found at `at` in the document) with a zod schema. Issues become errors
 * with full paths; unknown keys are reported by `checkKeys`, not here.
 */
export function validate<T>(schema: z.ZodType<T>, value: unknown, at: Path, diags: Diags): T | undefined {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  for (const issue of r.error.issues) {
    const path = [...at, ...(issue.path as Array<string | number>)];
    const actual = valueAt(value, issue.path);
    switch (issue.code) {
      case 'invalid_type':
        diags.error(
          path,
          actual === undefined
            ? `missing required field (expected ${issue.expected})`
            : `expected ${issue.expected}, got ${describe(actual)}`,
        );
        break;
      case 'too_small':
        diags.error(
          path,
          issue.origin === 'string' && Number(issue.minimum) === 1
            ? 'must not be empty'
            : `must be ${issue.inclusive ? '>=' : '>'} ${String(issue.minimum)}`,
        );
        break;
      case 'too_big':
        diags.error(path, `must be ${issue.inclusive ? '<=' : '<'} ${String(issue.maximum)}`);
        break;
      case 'invalid_value':
        diags.error(path, `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${describe(actual)}`);
        break;
      case 'unrecognized_keys':
        for (const key of issue.keys) diags.error([...path, key], `unknown field ${JSON.stringify(key)}`);
        break;
      default:
        diags.error(path, issue.message);
    }
  }
  return undefined;
}

/**
 * One native event of a config file: its mapping to a catalog event and its array of entries,
 * or undefined after reporting why its hooks are not loaded (unknown event, no equivalent,
 * not an array). `agent` is how the messages name the agent that ignores an unknown event.
 */
export function mappedEvent(
  dialect: Dialect,
  native: string,
  entries: unknown,
  diags: Diags,
  opts: { agent: string; entries: string },
): { mapping: EventMapping; event: EventName; entries: unknown[] } | undefined {
  const mapping = dialect.events.find((e) => e.native === native);
  if (!mapping) {
    diags.warn(['hooks', native], `unknown ${dialect.title} event ${JSON.stringify(native)}; ${opts.agent} ignores it`);
    return undefined;
  }
  if (!mapping.event) {
    diags.warn(
      ['hooks', native],
      `${native} has no equivalent in agent-hooks (${mapping.note ?? 'no equivalent'}); its hooks are not loaded`,
    );
    return undefined;
  }
  if (!Array.isArray(entries)) {
    diags.error(['hooks', native], `expected an array of ${opts.entries}, got ${typeof entries}`);
    return undefined;
  }
  return { mapping, event: mapping.event, entries };
}

/** Report keys outside `allowed`: errors for strict dialects (Kimi), warnings where the agent ignores them. */
export function checkKeys(
  obj: unknown,
  allowed: readonly string[],
  at: Path,
  diags: Diags,
  level: 'error' | 'warning',
  what = 'field',
  agent = '',
): void {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return;
  for (const key of Object.keys(obj)) {
    if (allowed.includes(key)) continue;
    const hint = closest(key, allowed);
    const msg = `unknown ${what} ${JSON.stringify(key)}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}`;
    if (level === 'error') diags.error([...at, key], msg);
    else diags.warn([...at, key], `${msg}; ${agent ? `${agent} ignores it` : 'ignored'}`);
  }
}

export interface HookInit {
  dialect: Dialect;
  ctx: ParseContext;
  event: EventName;
  /** Native matcher text (absent = all). */
  matcher?: string;
  matcherMode?: MatcherMode;
  handler: HookHandler;
  path: Path;
  /** Dialect-only data (nativeEvent always). */
  data: Record<string, unknown>;
}

/**
 * The dedup key of a dialect's hook: one of its own where the agent runs identical hooks once
 * each (Dialect.keepsIdenticalHooks), so nothing collapses with it; else the usual key.
 */
export function dedupKeyIn(dialect: Pick<Dialect, 'keepsIdenticalHooks'>, hook: Parameters<typeof dedupKeyFor>[0]): string {
  return dialect.keepsIdenticalHooks ? keyOfItsOwn(hook.id) : dedupKeyFor(hook);
}

/** A NormalizedHook with provenance, dialect tag, matcher mode, bridge and dedup key. */
export function makeHook(init: HookInit): NormalizedHook {
  const hookPath = formatPath(init.path);
  const source: Provenance = { kind: init.ctx.kind, file: init.ctx.file, path: hookPath };
  const base = {
    id: `${init.ctx.kind}:${init.ctx.file}#${hookPath}`,
    event: init.event,
    ...(init.matcher !== undefined ? { matcher: init.matcher } : {}),
    handler: init.handler,
    source,
  };
  const hook: NormalizedHook = {
    ...base,
    dedupKey: dedupKeyIn(init.dialect, base),
    dialect: init.dialect.name,
    ...(init.matcherMode && init.matcherMode !== 'claude' ? { matcherMode: init.matcherMode } : {}),
    ...(init.dialect.bridge ? { bridge: init.dialect.bridge } : {}),
    dialectData: init.data,
  };
  return hook;
}

/** The config value for a handler's timeout (seconds) in the target's unit; undefined when it was the agent default. */
export function timeoutOut(hook: NormalizedHook, unit: 's' | 'ms'): number | undefined {
  const t = hook.handler.timeout;
  if (t === undefined || hook.dialectData?.timeoutDefaulted === true) return undefined;
  return unit === 'ms' ? Math.round(t * 1000) : t;
}

export function eventSpec(event: EventName): EventFacts {
  return eventFacts(event);
}

/** The hook's matcher as a shape in canonical (Claude) tool names. */
export function canonicalMatcher(hook: NormalizedHook): MatcherShape {
  if (typeof hook.dialectData?.impliedMatcher === 'string' || hook.dialectData?.impliedMatcher === null) {
    // The native event implied the tool (Cursor's beforeShellExecution); the matcher is canonical already.
    return readMatcher(hook.matcher, 'claude');
  }
  const shape = readMatcher(hook.matcher, hook.matcherMode ?? 'claude');
  const from = hook.dialect ? getDialect(hook.dialect) : undefined;
  if (shape.kind === 'names' && from && TOOL_EVENTS.has(hook.event)) {
    const table = toolTable(from.tools);
    return { kind: 'names', names: [...new Set(shape.names.map((n) => table.toCanonical(n)))] };
  }
  return shape;
}

/** A canonical matcher shape written for a target dialect and event (tool names translated). */
export function targetMatcher(
  shape: MatcherShape,
  target: Dialect,
  event: EventName,
  source?: string,
): ReturnType<typeof writeMatcher> & { note?: string } {
  const mode = target.matcherMode(event);
  let s = shape;
  let note: string | undefined;
  if (s.kind === 'names' && TOOL_EVENTS.has(event)) {
    const table = toolTable(target.tools);
    s = { kind: 'names', names: [...new Set(s.names.map((n) => table.toNative(n)))] };
  } else if (s.kind === 'regex' && TOOL_EVENTS.has(event)) {
    const fromTools = (source ? getDialect(source)?.tools : undefined) ?? [];
    // MCP tools are mcp__server__tool everywhere except Cursor (MCP:tool) and Copilot (undocumented).
    const mcpOnly = /^\^?mcp__/.test(s.pattern) && ![source, target.name].some((n) => n === 'cursor' || n === 'copilot');
    if (!mcpOnly && JSON.stringify(fromTools) !== JSON.stringify(target.tools))
      note = `regular-expression matcher ${JSON.stringify(s.pattern)} copied as is; ${target.title} names tools differently, check it still matches`;
  }
  const written = writeMatcher(s, mode);
  return note ? { ...written, note } : written;
}

export interface LossLog {
  losses: Loss[];
  hook(hook: NormalizedHook, message: string): void;
  field(hook: NormalizedHook, message: string): void;
}

export function lossLog(): LossLog {
  const losses: Loss[] = [];
  return {
    losses,
    hook: (h, message) => losses.push({ path: h.source.path, hookId: h.id, scope: 'hook', message }),
    field: (h, message) => losses.push({ path: h.source.path, hookId: h.id, scope: 'field', message }),
  };
}

/** Handler fields a command-only dialect cannot carry; each one present is a loss. */
export function reportCommandFieldLosses(hook: NormalizedHook, keep: readonly string[], log: LossLog, agent: string): void {
  const h = hook.handler as unknown as Record<string, unknown>;
  for (const key of Object.keys(h)) {
    if (key === 'type' || keep.includes(key)) continue;
    if (h[key] === undefined) continue;
    log.field(hook, `${agent} has no equivalent of the handler field '${key}' (${JSON.stringify(h[key])}); left out`);
  }
}

export function commandOf(hook: NormalizedHook): CommandHandler | undefined {
  return hook.handler.type === 'command' ? hook.handler : undefined;
}

/** Dialect-only data another dialect cannot carry (names, descriptions, …) are losses too. */
export function reportDataLosses(hook: NormalizedHook, keep: readonly string[], log: LossLog, agent: string): void {
  const data = hook.dialectData ?? {};
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined || INTERNAL_DATA.has(key) || keep.includes(key)) continue;
    log.field(hook, `${agent} has no equivalent of ${hook.dialect ?? 'the source'}'s '${key}' (${JSON.stringify(value)}); left out`);
  }
}

/** dialectData keys that describe how a hook was read, not constructs of the source. */
const INTERNAL_DATA = new Set(['nativeEvent', 'timeoutDefaulted', 'impliedMatcher', 'payloadFormat']);

export function sortedJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

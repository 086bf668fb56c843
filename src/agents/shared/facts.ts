/**
 * Helpers every dialect uses: tool-name tables, matcher translation between matcher rules, case
 * conversion, and reading hook results (the bridges). Lean: no zod, no engine. The output of a
 * decision in each agent's convention is its wire codec's (src/agents/<name>/wire.ts, shared/wire.ts).
 */
import { TOOL_NAME_EVENT_SET } from '../../events/facts.js';
import type { ExecutionResult, MatcherMode, NormalizedHook } from '../../types.js';
import type { Dialect, ToolMapping } from '../types.js';
import { detectPluginAgent } from '../detectors.js';
import { isObject } from '../../util/is-object.js';

// Re-exported: the dialect modules import their helpers from here.
export { isObject };

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Tool events: the ones whose matcher sees a tool name (the catalog's TOOL_NAME_EVENTS). */
export const TOOL_EVENTS: ReadonlySet<string> = TOOL_NAME_EVENT_SET;

// ---------------------------------------------------------------------------------------------
// Tool names

export interface ToolTable {
  toNative(canonical: string): string;
  toCanonical(native: string): string;
  /** canonical tool_input → the agent's field names (unknown fields pass through). */
  inputToNative(canonicalTool: string, input: unknown): unknown;
  /** the agent's tool_input → canonical field names. */
  inputToCanonical(nativeTool: string, input: unknown): unknown;
  /** True when every name is the same in both vocabularies. */
  readonly identity: boolean;
}

function renameFields(input: unknown, map: Readonly<Record<string, string>> | undefined): unknown {
  if (!map || !isObject(input)) return input;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    const to = Object.hasOwn(map, k) ? map[k]! : k;
    // A field that is already present under its target name wins over a renamed one.
    if (!(to in out) || to === k) out[to] = v;
  }
  return out;
}

function invert(map: Readonly<Record<string, string>> | undefined): Record<string, string> | undefined {
  if (!map) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(map)) out[v] = k;
  return out;
}

/**
 * Tables from a dialect's tool list. The first entry for a canonical name is the one written;
 * every entry is read (Gemini has had two names for its grep tool).
 */
export function toolTable(
  tools: readonly ToolMapping[],
  mcp?: { toNative(n: string): string | undefined; toCanonical(n: string): string | undefined },
): ToolTable {
  const toNative = new Map<string, ToolMapping>();
  const toCanonical = new Map<string, ToolMapping>();
  for (const t of tools) {
    if (!toNative.has(t.canonical)) toNative.set(t.canonical, t);
    if (!toCanonical.has(t.native)) toCanonical.set(t.native, t);
  }
  const identity = !mcp && tools.every((t) => t.canonical === t.native && !t.fields);
  return {
    identity,
    toNative: (name) => toNative.get(name)?.native ?? mcp?.toNative(name) ?? name,
    toCanonical: (name) => toCanonical.get(name)?.canonical ?? mcp?.toCanonical(name) ?? name,
    inputToNative: (tool, input) => renameFields(input, toNative.get(tool)?.fields),
    inputToCanonical: (tool, input) => renameFields(input, invert(toCanonical.get(tool)?.fields)),
  };
}

/**
 * The value a dialect hook's matcher is tested against when the agent also accepts other names
 * for the tool (Qwen's `Bash`/`Shell` for run_shell_command, Codex's `Write`/`Edit` for
 * apply_patch): the alias the matcher names, else the native name.
 */
export function aliasedMatchValue(hook: NormalizedHook, native: string, aliases: Readonly<Record<string, readonly string[]>>): string {
  const names = aliases[native];
  if (!names || hook.matcher === undefined) return native;
  const shape = readMatcher(hook.matcher, hook.matcherMode ?? 'claude');
  if (shape.kind !== 'names' || shape.names.includes(native)) return native;
  return names.find((n) => shape.names.includes(n)) ?? native;
}

// ---------------------------------------------------------------------------------------------
// Matchers

/** What a matcher means, independent of any agent's syntax. */
export type MatcherShape =
  | { kind: 'all' }
  | { kind: 'names'; names: string[] }
  /** anchored: the pattern must match the whole value (Copilot's `^(?:p)$`). */
  | { kind: 'regex'; pattern: string; anchored: boolean };

const STANDARD_EXACT = /^[A-Za-z0-9_\- ,|]+$/;
const NARROW_EXACT = /^[A-Za-z0-9_|]+$/;
const NAME = /^[A-Za-z0-9_-]+$/;
const NAME_LIST = /^[A-Za-z0-9_-]+(?:\|[A-Za-z0-9_-]+)*$/;
const ANCHORED_LIST = /^\^(?:\((?:\?:)?([A-Za-z0-9_|-]+)\)|([A-Za-z0-9_-]+))\$$/;

function namesOf(list: string, sep: RegExp): string[] {
  return [
    ...new Set(
      list
        .split(sep)
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
}

/** `^Bash$`, `^(Bash|Edit)$`, `^(?:Bash|Edit)$` are exact name lists in any regex dialect. */
function anchoredNames(pattern: string): string[] | undefined {
  const m = ANCHORED_LIST.exec(pattern);
  if (!m) return undefined;
  const list = m[1] ?? m[2]!;
  if (!NAME_LIST.test(list)) return undefined;
  return namesOf(list, /\|/);
}

/** Read a matcher under a dialect's rules. */
export function readMatcher(matcher: string | undefined, mode: MatcherMode): MatcherShape {
  if (matcher === undefined) return { kind: 'all' };
  const trimmed = matcher.trim();
  switch (mode) {
    case 'claude':
    case 'claude-narrow': {
      if (trimmed === '' || trimmed === '*') return { kind: 'all' };
      const exact = mode === 'claude' ? STANDARD_EXACT : NARROW_EXACT;
      if (exact.test(matcher)) {
        const names = namesOf(matcher, mode === 'claude' ? /[|,]/ : /\|/);
        return names.length ? { kind: 'names', names } : { kind: 'regex', pattern: matcher, anchored: false };
      }
      const anchored = anchoredNames(matcher);
      return anchored ? { kind: 'names', names: anchored } : { kind: 'regex', pattern: matcher, anchored: false };
    }
    case 'exact':
      return trimmed === '' || trimmed === '*' ? { kind: 'all' } : { kind: 'names', names: [trimmed] };
    case 'regex-anchored': {
      if (trimmed === '' || trimmed === '*') return { kind: 'all' };
      if (NAME_LIST.test(matcher)) return { kind: 'names', names: namesOf(matcher, /\|/) };
      return { kind: 'regex', pattern: matcher, anchored: true };
    }
    default: {
      const p = mode === 'regex-or-exact' ? trimmed : matcher;
      if (p === '' || ((mode === 'regex-or-exact' || mode === 'regex-star') && p === '*')) return { kind: 'all' };
      const anchored = anchoredNames(p);
      if (anchored) return { kind: 'names', names: anchored };
      // A bare name list is, strictly, an unanchored regex; agents use it to name tools, and so do we.
      if (NAME_LIST.test(p)) return { kind: 'names', names: namesOf(p, /\|/) };
      return { kind: 'regex', pattern: p, anchored: false };
    }
  }
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface WrittenMatcher {
  /** One matcher per entry to write; [undefined] = no matcher (all). */
  matchers: Array<string | undefined>;
  /** Why the shape could not be written exactly. */
  loss?: string;
  /** The matcher cannot be written at all: the hook cannot be expressed. */
  impossible?: boolean;
}

/** Write a matcher shape in a dialect's syntax. `exact` splits a name list into one entry per name. */
export function writeMatcher(shape: MatcherShape, mode: MatcherMode): WrittenMatcher {
  if (shape.kind === 'all') return { matchers: [undefined] };
  if (shape.kind === 'names') {
    const names = shape.names;
    const alternation = `^(?:${names.map(escapeRegex).join('|')})$`;
    switch (mode) {
      case 'claude':
        return { matchers: [names.every((n) => /^[A-Za-z0-9_\- ]+$/.test(n) && n.trim() === n) ? names.join('|') : alternation] };
      case 'claude-narrow':
        return { matchers: [names.every((n) => /^[A-Za-z0-9_]+$/.test(n)) ? names.join('|') : alternation] };
      case 'regex-anchored':
        return { matchers: [names.every((n) => NAME.test(n)) ? names.join('|') : names.map(escapeRegex).join('|')] };
      case 'exact':
        return names.length === 1
          ? { matchers: [names[0]] }
          : {
              matchers: [...names],
              loss: `matcher ${JSON.stringify(names.join('|'))} written as ${names.length} entries (exact matchers name one value)`,
            };
      default:
        return { matchers: [names.length === 1 ? `^${escapeRegex(names[0]!)}$` : alternation] };
    }
  }
  // A regular expression.
  if (mode === 'exact')
    return {
      matchers: [],
      impossible: true,
      loss: `regular-expression matcher ${JSON.stringify(shape.pattern)} cannot be written: this event's matcher compares exactly`,
    };
  if (mode === 'regex-anchored') return { matchers: [shape.anchored ? shape.pattern : `.*(?:${shape.pattern}).*`] };
  const pattern = shape.anchored ? `^(?:${shape.pattern})$` : shape.pattern;
  if ((mode === 'claude' && STANDARD_EXACT.test(pattern)) || (mode === 'claude-narrow' && NARROW_EXACT.test(pattern))) {
    // Would read as exact names here: keep it a regex.
    return { matchers: [`(?:${pattern})`] };
  }
  return { matchers: [pattern] };
}

// ---------------------------------------------------------------------------------------------
// Case

export function camelToSnake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export function snakeToCamel(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** Rename the keys of a flat object (values untouched). */
export function mapKeys(obj: Record<string, unknown>, fn: (key: string) => string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[fn(k)] = v;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Hook-edge results

/** A result re-expressed in the Claude convention (what the parse stage reads). */
export function claudeResult(
  result: ExecutionResult,
  json: Record<string, unknown> | undefined,
  exitCode = 0,
  stderr?: string,
): ExecutionResult {
  return {
    ...result,
    exitCode,
    stdout: json ? JSON.stringify(json) : '',
    stderr: stderr ?? result.stderr,
  };
}

/** The whole trimmed stdout as one JSON object, or undefined. */
export function jsonObjectOf(stdout: string): Record<string, unknown> | undefined {
  const t = stdout.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Parse a JSON string field (Cursor's and Copilot's tool arguments); non-JSON stays as it was. */
export function parseMaybeJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

export function asInput(value: unknown): Record<string, unknown> {
  const v = parseMaybeJson(value);
  return isObject(v) ? v : v === undefined ? {} : { value: v };
}

/**
 * What the dialects of the plugin agents (OpenCode, Kilo, Pi) share: no hooks file of their own, so
 * no locations, no project variable and no configured events; their hooks are Claude-format
 * settings handed to the plugin, read with Claude's matcher rules.
 */
export const PLUGIN_AGENT_DIALECT = {
  format: 'json',
  projectDirEnv: [],
  configLocations: () => [],
  locations: { user: [], project: [] },
  defaults: { timeoutUnit: 's' },
  matcherMode: (): MatcherMode => 'claude',
  detect: detectPluginAgent,
  configuredEvents: () => [],
} satisfies Partial<Dialect>;

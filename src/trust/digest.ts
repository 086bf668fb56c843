/**
 * The canonical external hook config of a workspace, its digest, and what changed between two.
 *
 * The canonical config holds, for the hooks and settings files that need trust:
 * - every hook in config order (before dedup and policy): event, raw matcher, the whole handler
 *   (every field: anything in it can change behaviour), and provenance — source kind, file,
 *   position in the file, plugin name/id/root/data dir, skill name/root; the project's skill and
 *   subagent frontmatter hooks too (marked `frontmatter`), which run only when invoked;
 * - the hook-related settings of each such file (`disableAllHooks`, `agentHooks`,
 *   `allowedHttpHookUrls`, … — every top-level settings key agent-hooks reads except `hooks`);
 * - for every file a command hook references by path (scripts.ts): sha256 of its content, or
 *   `missing` / `directory` / `special`.
 * Function hooks never enter it (they cannot come from files).
 *
 * Paths under the workspace root (the git work tree, or the workspace directory) are written as
 * `%ROOT%/…` (after escaping `%` as `%25`, so the encoding stays one-to-one), so that worktrees
 * of one repository yield the same digest for the same content.
 *
 * digest = "sha256:" + hex sha256 of the canonical JSON (object keys sorted, no whitespace).
 */
import { createHash } from 'node:crypto';
import type { NormalizedHook, SourceKind } from '../types.js';
import { canonicalJson } from '../util/canonical-json.js';

export { canonicalJson };

/** How a referenced file is recorded: `sha256:<hex>`, `missing`, `directory` or `special`. */
type ScriptRecord = string;

export interface CanonicalHook {
  event: string;
  matcher?: string;
  handler: Record<string, unknown>;
  source: {
    kind: SourceKind;
    file?: string;
    path: string;
    pluginName?: string;
    pluginId?: string;
    pluginRoot?: string;
    pluginData?: string;
    skillName?: string;
    skillRoot?: string;
    /** Set for a skill's or subagent's frontmatter hook: reviewed now, registered when it is invoked. */
    frontmatter?: 'skill' | 'agent';
  };
  /** Keys into CanonicalConfig.scripts, in reference order. */
  scripts: string[];
  /** Why what the hook executes cannot be determined (pins.ts); absent when it is pinned. */
  unpinned?: string[];
}

export interface CanonicalSettings {
  kind: SourceKind;
  file: string;
  /** Hook-related top-level settings of the file (never `hooks`). */
  settings: Record<string, unknown>;
}

export interface CanonicalConfig {
  version: 1;
  hooks: CanonicalHook[];
  settings: CanonicalSettings[];
  scripts: Record<string, ScriptRecord>;
}

export function digestOf(config: CanonicalConfig): string {
  return `sha256:${createHash('sha256').update(canonicalJson(config)).digest('hex')}`;
}

const ROOT_MARK = '%ROOT%';

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Encode and decode paths relative to a workspace root (see the module comment). */
export function rootCodec(root: string): { encode(s: string): string; decode(s: string): string } {
  if (root.length <= 1) return { encode: (s) => s.replace(/%/g, '%25'), decode: (s) => s.replace(/%25/g, '%') };
  // The root counts only as a whole path prefix: followed by a separator, a quote, whitespace or the end.
  const re = new RegExp(`${escapeRegExp(root)}(?=$|[\\\\/"'\\s;&|)])`, 'g');
  return {
    // Each replace only where it can match: most strings (a type, a matcher, a command) are returned as they are.
    encode: (s) => {
      const escaped = s.includes('%') ? s.replace(/%/g, '%25') : s;
      return escaped.includes(root) ? escaped.replace(re, ROOT_MARK) : escaped;
    },
    decode: (s) =>
      s
        .split(ROOT_MARK)
        .map((part) => part.replace(/%25/g, '%'))
        .join(root),
  };
}

/** A hook as it enters the canonical config. */
export function canonicalHook(
  hook: NormalizedHook,
  encode: (s: string) => string,
  scripts: string[],
  real: (p: string) => string = (p) => p,
): CanonicalHook {
  const handler: Record<string, unknown> = { ...(hook.handler as unknown as Record<string, unknown>) };
  if (typeof handler.command === 'string') handler.command = encode(handler.command);
  if (Array.isArray(handler.args)) handler.args = (handler.args as unknown[]).map((a) => (typeof a === 'string' ? encode(a) : a));
  const s = hook.source;
  const source: CanonicalHook['source'] = { kind: s.kind, path: s.path };
  if (s.file !== undefined) source.file = encode(real(s.file));
  if (s.pluginName !== undefined) source.pluginName = s.pluginName;
  if (s.pluginId !== undefined) source.pluginId = s.pluginId;
  if (s.pluginRoot !== undefined) source.pluginRoot = encode(real(s.pluginRoot));
  if (s.pluginData !== undefined) source.pluginData = encode(real(s.pluginData));
  if (s.skillName !== undefined) source.skillName = s.skillName;
  if (s.skillRoot !== undefined) source.skillRoot = encode(real(s.skillRoot));
  if (s.frontmatter !== undefined) source.frontmatter = s.frontmatter;
  return {
    event: hook.event,
    ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}),
    handler,
    source,
    scripts,
  };
}

// ---------------------------------------------------------------------------------------------
// What changed

/** One difference between the trusted config and the current one. */
export interface Change {
  /** added: hook not in the trusted config; config: a field differs; moved: same hook, other position; script: a referenced file differs. */
  kind: 'added' | 'config' | 'moved' | 'script';
  /** config: dotted field (`matcher`, `handler.command`, `source.file`); moved: `source.path`. */
  field?: string;
  /** script: the referenced path (decoded). */
  script?: string;
  before?: unknown;
  after?: unknown;
}

export interface ConfigDiff {
  /** Per current hook (same index as current.hooks). */
  hooks: Change[][];
  /** Trusted hooks with no counterpart now. */
  removed: CanonicalHook[];
  /** Changed hook-related settings (field = `<file>: <key>`). */
  settings: Change[];
}

function withoutPath(h: CanonicalHook): string {
  return canonicalJson({ ...h, source: { ...h.source, path: undefined }, scripts: undefined, unpinned: undefined });
}

/**
 * A hook's config and place (event, matcher, handler, provenance with position), without what
 * its pins resolved to: equal shapes are the same hook in the same place of the same file.
 */
export function hookShape(h: CanonicalHook): string {
  return canonicalJson({ ...h, scripts: undefined, unpinned: undefined });
}

function scriptChanges(
  cur: CanonicalHook,
  curScripts: Record<string, ScriptRecord>,
  old: Record<string, ScriptRecord>,
  decode: (s: string) => string,
): Change[] {
  const out: Change[] = [];
  for (const key of cur.scripts) {
    const before = old[key];
    const after = curScripts[key];
    if (before !== after)
      out.push({ kind: 'script', script: decode(key), before: before ?? 'not referenced', after: after ?? 'unreadable' });
  }
  return out;
}

function fieldChanges(prefix: string, a: unknown, b: unknown, out: Change[], decode: (s: string) => string): void {
  if (canonicalJson(a) === canonicalJson(b)) return;
  const isObj = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObj(a) && isObj(b)) {
    const keys = [...new Set([...Object.keys(a as object), ...Object.keys(b as object)])].sort();
    for (const k of keys)
      fieldChanges(prefix ? `${prefix}.${k}` : k, (a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], out, decode);
    return;
  }
  const show = (v: unknown) =>
    typeof v === 'string' ? decode(v) : Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? decode(x) : x)) : v;
  out.push({ kind: 'config', field: prefix, before: show(a), after: show(b) });
}

/**
 * Match current hooks to trusted ones: first an identical hook (any position), then the hook
 * at the same file and position; report field, position and script differences.
 */
export function diffConfigs(trusted: CanonicalConfig, current: CanonicalConfig, decode: (s: string) => string): ConfigDiff {
  const used = new Set<number>();
  const hooks: Change[][] = current.hooks.map(() => []);
  const pending: number[] = [];
  // Each trusted hook's key once, not once per current hook.
  const trustedKeys = trusted.hooks.map(withoutPath);
  current.hooks.forEach((h, i) => {
    const key = withoutPath(h);
    let at = trusted.hooks.findIndex((t, j) => !used.has(j) && trustedKeys[j] === key && t.source.path === h.source.path);
    if (at < 0) at = trusted.hooks.findIndex((_t, j) => !used.has(j) && trustedKeys[j] === key);
    if (at < 0) {
      pending.push(i);
      return;
    }
    used.add(at);
    const t = trusted.hooks[at]!;
    if (t.source.path !== h.source.path)
      hooks[i]!.push({ kind: 'moved', field: 'source.path', before: t.source.path, after: h.source.path });
    hooks[i]!.push(...scriptChanges(h, current.scripts, trusted.scripts, decode));
  });
  for (const i of pending) {
    const h = current.hooks[i]!;
    const at = trusted.hooks.findIndex((t, j) => !used.has(j) && t.source.file === h.source.file && t.source.path === h.source.path);
    if (at < 0) {
      hooks[i]!.push({ kind: 'added' }, ...scriptChanges(h, current.scripts, {}, decode).map((c) => ({ ...c, before: 'not referenced' })));
      continue;
    }
    used.add(at);
    const t = trusted.hooks[at]!;
    const changes: Change[] = [];
    fieldChanges(
      '',
      { event: t.event, matcher: t.matcher, handler: t.handler, source: t.source },
      { event: h.event, matcher: h.matcher, handler: h.handler, source: h.source },
      changes,
      decode,
    );
    changes.push(...scriptChanges(h, current.scripts, trusted.scripts, decode));
    hooks[i] = changes;
  }
  const removed = trusted.hooks.filter((_t, j) => !used.has(j));

  const settings: Change[] = [];
  const files = [...new Set([...trusted.settings.map((s) => s.file), ...current.settings.map((s) => s.file)])];
  for (const file of files) {
    const a = trusted.settings.find((s) => s.file === file)?.settings ?? {};
    const b = current.settings.find((s) => s.file === file)?.settings ?? {};
    const changes: Change[] = [];
    fieldChanges('', a, b, changes, decode);
    settings.push(...changes.map((c) => ({ ...c, field: `${decode(file)}: ${c.field}` })));
  }
  return { hooks, removed, settings };
}

/** One line per change, for people. */
export function describeChange(c: Change): string {
  const show = (v: unknown) => (v === undefined ? '(none)' : JSON.stringify(v));
  switch (c.kind) {
    case 'added':
      return 'new hook (not in the trusted config)';
    case 'moved':
      return `moved from ${String(c.before)}`;
    case 'script':
      return `script ${c.script}: ${describeScript(c.before)} → ${describeScript(c.after)}`;
    default:
      return `${c.field}: ${show(c.before)} → ${show(c.after)}`;
  }
}

function describeScript(v: unknown): string {
  if (typeof v === 'string' && v.startsWith('sha256:')) return v.slice(0, 19);
  return String(v);
}

/**
 * The verdict of an assessment and how it is told: the workspace's state and why, each hook's
 * status with its changes, each script's status, and the skip warnings that say how to trust.
 */
import { describeChange, type ConfigDiff } from './digest.js';
import type { PinRecord } from './scripts.js';
import type { TrustRecord } from './store.js';
import { isPathInside } from '../util/path-inside.js';
import type { HookTrustStatus, ScriptStatus, SkippedHook, TrustState } from './types.js';
import type { HookHandler, NormalizedHook } from '../types.js';
import type { Workspace } from './workspace.js';

export interface Verdict {
  state: TrustState;
  reason: string;
}

/** Gate 1 and gate 2, in the order that fails closed: store and script errors first. */
export function verdictOf(v: {
  storeError?: string;
  scriptError?: string;
  workspaceTrusted: boolean;
  hostDecided: boolean;
  trusted: TrustRecord['hooks'] | undefined;
  digest: string | undefined;
}): Verdict {
  if (v.storeError) return { state: 'error', reason: v.storeError };
  if (v.scriptError !== undefined) return { state: 'error', reason: `a referenced script cannot be read: ${v.scriptError}` };
  if (!v.workspaceTrusted)
    return {
      state: 'untrusted',
      reason: v.hostDecided ? 'the host has not trusted this workspace' : 'this workspace has never been trusted',
    };
  if (!v.trusted) return { state: 'untrusted', reason: "this workspace's hooks have not been reviewed and trusted" };
  if (v.trusted.digest === v.digest) return { state: 'trusted', reason: `hooks match the digest trusted at ${v.trusted.trustedAt}` };
  return { state: 'modified', reason: 'the hook config or a script it runs changed since it was trusted' };
}

function describeHandler(h: HookHandler): string {
  switch (h.type) {
    case 'command':
      return h.args ? `${h.command} ${JSON.stringify(h.args)}` : h.command;
    case 'http':
      return h.url;
    case 'mcp_tool':
      return `${h.server}/${h.tool}`;
    case 'function':
      return h.name ?? 'function';
    default:
      return h.prompt.length > 80 ? `${h.prompt.slice(0, 77)}...` : h.prompt;
  }
}

/** Every hook given, in order, with its state and (when gated) its changes since trusted. */
export function hookStatuses(
  hooks: readonly NormalizedHook[],
  e: {
    gated: readonly boolean[];
    state: TrustState;
    diff: ConfigDiff | undefined;
    hookScripts: string[][];
    hookErrors: string[][];
    hookUnpinned: string[][];
    workspace: Workspace;
  },
): HookTrustStatus[] {
  let gi = 0;
  return hooks.map((h, i) => {
    const changes = e.gated[i] && e.diff ? (e.diff.hooks[gi++] ?? []) : [];
    return {
      id: h.id,
      event: h.event,
      ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
      type: h.handler.type,
      summary: describeHandler(h.handler),
      enabled: h.handler.enabled !== false,
      source: h.source,
      needsTrust: e.gated[i]!,
      state: e.gated[i] ? e.state : 'trusted',
      changes,
      scripts: e.hookScripts[i]!,
      errors: e.hookErrors[i]!,
      unpinned: e.hookUnpinned[i]!,
      outside: e.hookScripts[i]!.map(pathOfRecord).filter(
        (k): k is string => k !== undefined && !isPathInside(k, e.workspace.root) && !isPathInside(k, e.workspace.dir),
      ),
    };
  });
}

/** Every record read (or stood in), with what the trusted config recorded for it. */
export function scriptStatuses(
  allRecords: Map<string, PinRecord>,
  deferred: Set<string>,
  trusted: TrustRecord['hooks'] | undefined,
  encode: (p: string) => string,
): ScriptStatus[] {
  return [...allRecords].map(([p, r]) => {
    const current = r.record ?? 'error';
    const old = trusted?.config.scripts[encode(p)];
    return {
      path: p,
      current,
      ...(old !== undefined ? { trusted: old } : {}),
      ...(r.error ? { error: r.error } : {}),
      ...(deferred.has(p) ? { deferred: true as const } : {}),
    };
  });
}

/** Quote for a POSIX shell when needed, so the hint can be pasted. */
function shellQuote(s: string): string {
  return /^[A-Za-z0-9_\-./:@%+=,]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The one-line "how to trust" hint of the skip warnings. */
export function howToTrust(h: {
  prog: string;
  workspace: Workspace;
  storeError: boolean;
  scriptErrors: boolean;
  digest: string | undefined;
  unpinned: boolean;
}): string {
  const cwdArg = shellQuote(h.workspace.dir);
  if (h.storeError) return `fix the trust store, then review with \`${h.prog} status --cwd ${cwdArg}\``;
  if (h.scriptErrors) return `make the referenced scripts readable, then review with \`${h.prog} status --cwd ${cwdArg}\``;
  const ack = h.unpinned ? ' --allow-unpinned' : '';
  return `review with \`${h.prog} status --cwd ${cwdArg}\`, then trust with \`${h.prog} trust --cwd ${cwdArg} --digest ${h.digest}${ack}\``;
}

/** The gated hooks left out (none when trusted), each with why and how to trust. */
export function skippedHooks(
  hooks: readonly NormalizedHook[],
  statuses: readonly HookTrustStatus[],
  verdict: Verdict,
  howTo: () => string,
): SkippedHook[] {
  const skipped: SkippedHook[] = [];
  if (verdict.state === 'trusted') return skipped;
  const { state, reason } = verdict;
  hooks.forEach((h, i) => {
    const st = statuses[i]!;
    if (!st.needsTrust) return;
    const detail = st.errors.length > 0 ? st.errors.join('; ') : st.changes.length > 0 ? st.changes.map(describeChange).join('; ') : reason;
    skipped.push({
      hook: h,
      state: state as SkippedHook['state'],
      message: `${h.source.kind} ${h.handler.type} hook skipped (${state}: ${detail}); ${howTo()}`,
    });
  });
  return skipped;
}

/** `file: path: message` for each skipped hook. */
export function skipWarnings(skipped: readonly SkippedHook[]): string[] {
  return skipped.map((s) => [s.hook.source.file, s.hook.source.path, s.message].filter(Boolean).join(': '));
}

/** The file or directory a record key names: `pymod:<dir>:<name>` its directory; `glob:` keys none. */
function pathOfRecord(key: string): string | undefined {
  if (key.startsWith('glob:')) return undefined;
  return key.startsWith('pymod:') ? key.slice('pymod:'.length, key.lastIndexOf(':')) : key;
}

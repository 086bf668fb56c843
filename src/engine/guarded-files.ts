/**
 * The engine's own rule that the agent cannot edit its guards: a tool call that would write a file
 * a reviewed hook's review covers (`NormalizedHook.guards`, set by src/trust/verify.ts: what the
 * hook pins, its config file, the workspace's gated settings files) is refused before any hook
 * runs. It enters the firing as one more planned hook whose verification fails, so the refusal is
 * an engine fault judged like any other (a deny on events that can block) and recorded.
 *
 * Covered: Write, Edit, MultiEdit, NotebookEdit and every path of an ApplyPatch (src/matching/paths.ts),
 * as each agent's tool maps to these names, and the files a Bash command writes, moves or deletes
 * as src/matching/shell-writes.ts reads them (a target known only by its name — an expansion, a
 * `cd` before it, an unreadable command — is compared by file name, the safe side). A write it
 * cannot see (a path assembled at run time) is caught at the next execution: a changed pinned file
 * fails the guarded events closed (verify.ts).
 */
import { type Dirent, readdirSync } from 'node:fs';
import path from 'node:path';
import { compileMatcher } from '../matching/matcher.js';
import { APPLY_PATCH_TOOLS, extractToolPaths } from '../matching/paths.js';
import type { ShellWrites } from '../matching/shell-writes.js';
import type { NormalizedHook } from '../types.js';
import { linkTargets, realOr } from '../util/real-path.js';
import type { PlannedHook } from './plan.js';

const WRITE_TOOLS: ReadonlySet<string> = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash', ...APPLY_PATCH_TOOLS]);
const MATCH_ALL = compileMatcher(undefined);

/** `p` against `cwd`, not normalized: a `..` after a link is the kernel's to take (util/real-path.ts). */
const joined = (cwd: string, p: string): string => (p.startsWith('/') ? p : `${cwd}/${p}`);

function pathHit(guarded: ReadonlySet<string>, paths: readonly string[], cwd: string, whole = false): string | undefined {
  // As the pins record a path (the directory part real, the name as written), and each link it is
  // followed: a write of `notes.txt -> hooks/guard.sh` writes the guard. With `whole`, a directory
  // holds what a recursive writer reaches (`rm -r hooks`, `chmod -R`, `mv hooks elsewhere`).
  for (const t of paths.flatMap((p) => linkTargets(joined(cwd, p)))) {
    const hit = whole ? reached(guarded, t) : guarded.has(t) ? t : undefined;
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** The guarded file `t` is, or one under the directory `t`. */
function reached(guarded: ReadonlySet<string>, t: string): string | undefined {
  if (guarded.has(t)) return t;
  for (const f of guarded) if (under(f, t)) return f;
  return undefined;
}

/** A guarded file the Bash command may write: by path where it is spelt in full, else by name. */
function shellHit(writes: ShellWrites, guarded: ReadonlySet<string>, command: string, cwd: string): string | undefined {
  const byPath = pathHit(guarded, writes.paths, cwd) ?? pathHit(guarded, writes.trees, cwd, true);
  if (byPath !== undefined) return byPath;
  const names = new Set(writes.names.filter((n) => !/[*?[]/.test(n)));
  const nameGlobs = writes.names.filter((n) => /[*?[]/.test(n)).map(nameGlob);
  const globs = writes.globs.map((g) => ({ dir: realOr(joined(cwd, g.base)), rest: g.rest }));
  for (const f of guarded) {
    // The file's name, and the directories on its way from the working directory: `rm -r "$d"`
    // with `d=hooks` removes hooks/guard.sh.
    const own = under(f, cwd) ? f.slice(cwd.length).split('/').filter(Boolean) : [path.basename(f)];
    if (own.some((n) => names.has(n) || nameGlobs.some((g) => g.test(n))) || (writes.unread && command.includes(path.basename(f))))
      return f;
    if (globs.some((g) => under(f, g.dir) && ancestry(f.slice(g.dir.length)).some((rel) => g.rest.test(rel)))) return f;
  }
  for (const g of globs) {
    const hit = linkedByGlob(guarded, g.dir, g.rest);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** Past this many entries in a glob's directory, the links in it are not read one by one. */
const MAX_GLOB_ENTRIES = 10_000;

/**
 * A link in the glob's directory the glob matches, that reaches a guarded file: after
 * `ln -s hooks/guard.sh x.pyc`, `chmod -x *.pyc` changes the guard.
 */
function linkedByGlob(guarded: ReadonlySet<string>, dir: string, rest: RegExp): string | undefined {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  // Flooded so that a link would be read too late: any guarded file may be reached.
  if (entries.length > MAX_GLOB_ENTRIES) return guarded.values().next().value;
  for (const e of entries) {
    if (!e.isSymbolicLink() || !rest.test(e.name)) continue;
    for (const t of linkTargets(`${dir}/${e.name}`)) {
      const hit = reached(guarded, t);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}

/** A relative path and each directory on its way: `hooks/guard.sh`, `hooks`. */
function ancestry(rel: string): string[] {
  const parts = rel.split('/').filter(Boolean);
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

const under = (f: string, dir: string): boolean => f.startsWith(dir.endsWith('/') ? dir : `${dir}/`);

/** A name holding glob characters, as the file names it matches (a bracket is any one character). */
function nameGlob(name: string): RegExp {
  const source = name.replace(/\[[^\]]*\]|\*|\?|[^*?[]+|./g, (m) =>
    m === '*' ? '.*' : m === '?' || m.startsWith('[') ? '.' : m.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&'),
  );
  return new RegExp(`^${source}$`);
}

/**
 * The refusal to plan first, when this tool call writes one of the `guarded` files (the plan
 * index's: every hook's, disabled ones too); else undefined. A Bash call answers a promise: the
 * shell reader (and its parser, unbash) loads only then.
 */
export function guardedWrite(
  guarded: ReadonlySet<string>,
  input: Record<string, unknown>,
  cwd: string,
  event: NormalizedHook['event'],
): PlannedHook | undefined | Promise<PlannedHook | undefined> {
  const tool = input.tool_name;
  if (guarded.size === 0 || typeof tool !== 'string' || !WRITE_TOOLS.has(tool)) return undefined;
  if (tool !== 'Bash') {
    const hit = pathHit(guarded, extractToolPaths(tool, input.tool_input), cwd);
    return hit === undefined ? undefined : refusal(event, writeReason(tool, hit));
  }
  const command = (input.tool_input as { command?: unknown } | undefined)?.command;
  if (typeof command !== 'string') return undefined;
  return import('../matching/shell-writes.js').then(
    (m) => {
      const writes = m.shellWrites(command);
      if (writes.trusts) return refusal(event, TRUST_REASON);
      const hit = shellHit(writes, guarded, command, cwd);
      return hit === undefined ? undefined : refusal(event, writeReason(tool, hit));
    },
    (err: unknown) =>
      refusal(
        event,
        `cannot tell which files this Bash command writes: the shell reader did not load (${err instanceof Error ? err.message : String(err)})`,
      ),
  );
}

const TRUST_REASON =
  'Bash would run `agent-hooks trust` or `revoke`: what the hooks may do is the user’s to review and trust, never the agent’s (run it yourself)';

const writeReason = (tool: string, hit: string) =>
  `${tool} would write ${hit}, which a trusted hook runs or is configured in; the agent may not edit its own guards (edit it yourself, then re-trust with \`agent-hooks trust\`)`;

function refusal(event: NormalizedHook['event'], reason: string): PlannedHook {
  const hook: NormalizedHook = {
    id: 'agent-hooks:guarded-files',
    event,
    handler: { type: 'function', name: 'guarded-files', fn: () => undefined },
    source: { kind: 'sdk', path: 'built-in: guarded files' },
    dedupKey: '\0guarded-files',
    verify: async () => ({ failed: reason }),
  };
  return { hook, seq: -1, matcher: MATCH_ALL, firingKey: undefined };
}

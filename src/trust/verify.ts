/**
 * Trust at execution: what the loader hands the engine after an assessment (docs/security.md
 * "What runs is what was reviewed", "A changed guard never silently disappears").
 *
 * - A reviewed hook (workspace `trusted`) gets `verify`: before each execution its pins are
 *   modelled again where it runs (its real cwd and project), and every record must equal the
 *   trusted one — a file the review did not cover, or one that changed since, stops it. After it
 *   ran, `recheck` compares the (device, inode, size, mtime, ctime) of every pinned file with
 *   those seen before it started: a file swapped while it ran voids its answer.
 * - A reviewed workspace whose hooks changed (`modified`, or `error` once reviewed or with an
 *   unusable store) keeps its hooks, and the hooks of the trusted config, as hooks that always
 *   fail verification: the engine fails closed on the events they guard (an engine fault), with
 *   the reason and how to re-trust. Never reviewed (`untrusted`) hooks stay out.
 * - Every reviewed hook carries `guards`: its pinned files and its config file, which the engine
 *   refuses tool writes to.
 */
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { describeChange, rootCodec, type CanonicalHook } from './digest.js';
import { HASH_CACHE_FILE, HashCache, MAX_TREE_FILES } from './hash.js';
import { WALK_CACHE_FILE } from './pins/walk-cache.js';
import { pinsOf } from './pins.js';
import { pinRecords, type PinRecord } from './scripts.js';
import { servedPins } from './served.js';
import type { HookTrustStatus, TrustReport } from './types.js';
import type { EventName } from '../events/catalog.js';
import type { HookHandler, HookVerifier, NormalizedHook, Provenance } from '../types.js';
import { userHome } from '../util/os-dirs.js';
import { realOr } from '../util/real-path.js';

export interface VerdictOptions {
  homeDir?: string;
  /** Program name of the re-trust hint; default `agent-hooks`. */
  command?: string;
  /** Policy removes every non-managed hook anyway (managed disableAllHooks, allowManagedHooksOnly). */
  nonManagedOff?: boolean;
}

/**
 * The hooks after an assessment, as the engine must run them: reviewed hooks with `verify` and
 * `guards`; in a reviewed workspace that changed, the gated hooks as failed verification.
 * Frontmatter hooks are left to `frontmatterVerdict`: they run only when their skill/agent does.
 */
export function withTrustVerdict(hooks: readonly NormalizedHook[], report: TrustReport, o: VerdictOptions = {}): NormalizedHook[] {
  if (o.nonManagedOff) return [...hooks];
  return verdictOf(
    hooks,
    report,
    o,
    (src) => src.frontmatter === undefined,
    (id) => `trusted hook ${id} changed since it was reviewed`,
  );
}

/**
 * The hooks of one project skill or subagent file when it is invoked, from an assessment that
 * reviewed the project's frontmatter (`frontmatter`: every such hook read then; loadTrustedConfig).
 * Reviewed and unchanged: the file's hooks run, verified at each execution. In a reviewed
 * workspace that changed (this file or another): its current hooks and the reviewed ones fail
 * closed. `read`: the review read hooks from the file. `undefined`: not trusted (never reviewed, or not by the host).
 */
export function frontmatterVerdict(
  file: string,
  kind: 'skill' | 'agent',
  review: { trust: TrustReport; frontmatter: readonly NormalizedHook[] },
  o: VerdictOptions = {},
): { hooks: NormalizedHook[]; read: boolean } | undefined {
  const report = review.trust;
  if (report.state === 'untrusted' || (report.state !== 'trusted' && !wasReviewed(report))) return undefined;
  const at = realOr(file);
  const mine = (src: Provenance) => src.frontmatter === kind && src.file !== undefined && realOr(src.file) === at;
  const current = review.frontmatter.filter((h) => mine(h.source));
  const hooks = verdictOf(report.state === 'trusted' ? current : [], report, o, mine, notReviewedIn(file));
  return { hooks, read: current.length > 0 };
}

const notReviewedIn = (file: string) => (id: string) => `${file}: its hook ${id} is not what was reviewed`;

/** Hooks that may not run, each failing with `reason` at every execution (the engine fails closed on their events). */
export function failClosed(hooks: readonly NormalizedHook[], reason: string): NormalizedHook[] {
  return hooks.map((h) => failedHook(h, reason));
}

const wasReviewed = (report: TrustReport) =>
  report.trustedDigest !== undefined || (report.state === 'error' && report.errors[0] === report.reason);

function verdictOf(
  hooks: readonly NormalizedHook[],
  report: TrustReport,
  o: VerdictOptions,
  mine: (source: Provenance) => boolean,
  notReviewed: (id: string) => string,
): NormalizedHook[] {
  const status = new Map(report.hooks.map((s) => [s.id, s]));
  if (report.state === 'trusted') {
    const check = verifierContext(report, o);
    return hooks.map((h) => {
      const s = status.get(h.id);
      if (!s?.needsTrust) return h;
      const verify = verifierFor(h, s, check);
      return { ...h, ...(verify ? { verify } : {}), guards: guardsOf(h, s, report) };
    });
  }
  if (report.state === 'untrusted' || !wasReviewed(report)) return [...hooks];
  const how = retrustHint(report, o.command);
  const failed: NormalizedHook[] = report.skipped
    .filter((s) => mine(s.hook.source))
    .map((s) => {
      const st = status.get(s.hook.id);
      const what = st ? changeOf(st, report) : report.reason;
      return failedHook(s.hook, `${notReviewed(s.hook.id)} (${report.state}: ${what}); ${how}`, st);
    });
  const { decode } = rootCodec(report.workspace.root);
  (report.reviewedHooks ?? []).forEach((c, i) => {
    const h = reviewedHook(c, i, decode);
    if (!mine(h.source)) return;
    failed.push(failedHook(h, `the reviewed hook ${h.id} is not what runs now (${report.state}: ${changedFiles(report)}); ${how}`));
  });
  return [...hooks, ...failed];
}

/** The hint every failure ends with: what to review, and the command that re-trusts. */
function retrustHint(report: TrustReport, command = 'agent-hooks'): string {
  const dir = quote(report.workspace.dir);
  const digest = report.digest ? ` --digest ${report.digest}` : '';
  const ack = report.unpinned.length > 0 ? ' --allow-unpinned' : '';
  return `the events it guards are denied until it is re-trusted: review with \`${command} status --cwd ${dir}\`, then \`${command} trust --cwd ${dir}${digest}${ack}\``;
}

function quote(s: string): string {
  return /^[A-Za-z0-9_\-./:@%+=,]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** What changed for one hook, naming the files: its own changes, else every changed script of the workspace. */
function changeOf(st: HookTrustStatus, report: TrustReport): string {
  if (st.errors.length > 0) return st.errors.join('; ');
  const scripts = report.scripts.filter((s) => s.trusted !== undefined && s.trusted !== s.current).map((s) => `${s.path} changed`);
  const own = st.changes.map(describeChange);
  const all = [...new Set([...own, ...scripts])];
  return all.length > 0 ? all.join('; ') : report.reason;
}

/** What changed in the workspace, naming the files (scripts, then hook configs and settings). */
function changedFiles(report: TrustReport): string {
  const scripts = report.scripts.filter((s) => s.trusted !== s.current).map((s) => `${s.path} changed`);
  const configs = report.hooks
    .filter((h) => h.needsTrust && h.changes.some((c) => c.kind !== 'script'))
    .map((h) => `${h.source.file} changed`);
  const settings = report.settingsChanges.length > 0 ? ['hook settings changed'] : [];
  const removed = report.removed.length > 0 ? [`${report.removed.length} reviewed hook(s) removed`] : [];
  const all = [...new Set([...scripts, ...configs, ...settings, ...removed, ...report.errors])];
  return all.length > 0 ? all.join('; ') : report.reason;
}

/** A hook kept only to fail: never async (its deny must count), never `once`. */
function failedHook(h: NormalizedHook, reason: string, st?: HookTrustStatus): NormalizedHook {
  const handler = { ...h.handler, async: false, asyncRewake: false, once: false } as HookHandler;
  const failed: HookVerifier = async () => ({ failed: reason });
  return { ...h, handler, verify: failed, ...(st ? { guards: [...st.scripts.filter((k) => !k.includes(':')), ...sourceFile(h)] } : {}) };
}

/** A hook of the trusted config, decoded, as a registry hook (Claude's matcher rules). */
function reviewedHook(c: CanonicalHook, i: number, decode: (s: string) => string): NormalizedHook {
  const handler = { ...c.handler } as Record<string, unknown>;
  if (typeof handler.command === 'string') handler.command = decode(handler.command);
  const source = { ...c.source } as Provenance;
  for (const k of ['file', 'pluginRoot', 'pluginData', 'skillRoot'] as const) if (source[k] !== undefined) source[k] = decode(source[k]!);
  return {
    id: `reviewed:${source.file ?? ''}#${source.path}`,
    event: c.event as EventName,
    ...(c.matcher !== undefined ? { matcher: c.matcher } : {}),
    handler: handler as unknown as HookHandler,
    source,
    dedupKey: `\0reviewed#${i}`,
  };
}

const sourceFile = (h: NormalizedHook): string[] => (h.source.file !== undefined && path.isAbsolute(h.source.file) ? [h.source.file] : []);

/** The files a reviewed hook's review covers: pinned paths (not `glob:` lists), its config file, the gated settings files, the trust store. */
function guardsOf(h: NormalizedHook, st: HookTrustStatus, report: TrustReport): string[] {
  const files = st.scripts.filter((k) => path.isAbsolute(k));
  const gated = report.gatedSources.map((s) => s.file).filter((f) => path.isAbsolute(f));
  // The trust store, and the caches beside it whose entries stand in for a hash or a walk.
  const dir = path.dirname(report.store);
  const store = [report.store, path.join(dir, HASH_CACHE_FILE), path.join(dir, WALK_CACHE_FILE)];
  return [...new Set([...files, ...sourceFile(h), ...gated, ...store].filter((f) => path.isAbsolute(f)))];
}

interface VerifierContext {
  expected: Map<string, string>;
  encode: (s: string) => string;
  homeDir: string;
  gitTopLevel?: string;
  cache: HashCache;
  how: string;
}

function verifierContext(report: TrustReport, o: VerdictOptions): VerifierContext {
  const { encode } = rootCodec(report.workspace.root);
  return {
    expected: new Map(Object.entries(report.config?.scripts ?? {})),
    encode,
    homeDir: o.homeDir ?? userHome(),
    ...(report.workspace.git ? { gitTopLevel: report.workspace.git.worktree } : {}),
    // Memory only: a hit needs the same (device, inode, size, mtime, ctime) as when hashed.
    cache: new HashCache(),
    how: retrustHint(report, o.command),
  };
}

/** The check before each execution of a reviewed hook (see the module comment). */
function verifierFor(h: NormalizedHook, st: HookTrustStatus, c: VerifierContext): HookVerifier | undefined {
  if (h.handler.type !== 'command') return undefined;
  const handler = h.handler;
  const acknowledged = st.unpinned.length > 0;
  return async (at) => {
    // The hook then runs in these real directories: a link on the way, re-pointed after the
    // check, would lead its paths to files nobody checked (the pinned ones being unchanged).
    const roots: Partial<Record<'pluginRoot' | 'skillRoot' | 'pluginData', string>> = {};
    for (const k of ['pluginRoot', 'skillRoot', 'pluginData'] as const) if (h.source[k] !== undefined) roots[k] = realOr(h.source[k]!);
    const where = { cwd: realOr(at.cwd), projectDir: realOr(at.projectDir), roots };
    const pluginRoot = roots.pluginRoot ?? roots.skillRoot;
    const pins = pinsOf(handler, {
      cwd: where.cwd,
      projectDir: where.projectDir,
      homeDir: c.homeDir,
      ...(c.gitTopLevel !== undefined ? { gitTopLevel: c.gitTopLevel } : {}),
      ...(pluginRoot !== undefined ? { pluginRoot } : {}),
      ...(roots.pluginData !== undefined ? { pluginData: roots.pluginData } : {}),
    });
    const fail = (why: string) => ({ failed: `trusted hook ${h.id}: ${why}; ${c.how}` });
    if (!acknowledged && pins.unpinned.length > 0)
      return fail(`where it runs (${at.cwd}) what it executes cannot be determined (${pins.unpinned[0]})`);
    const { records } = await pinRecords(pins, c.cache);
    for (const r of records) {
      const want = c.expected.get(c.encode(r.key));
      if (want === undefined) return fail(`run in ${at.cwd} it would execute ${r.key}, which was not reviewed`);
      if (r.record !== want)
        return fail(`${r.key} changed since it was trusted (${want.slice(0, 19)} → ${(r.record ?? r.error ?? 'unreadable').slice(0, 19)})`);
    }
    const links = await linksOnTheWay([...pins.files, ...pins.trees], records);
    if (typeof links === 'string') return fail(links);
    const served = at.serve ? await servedPins(records, links) : undefined;
    if (typeof served === 'string') return fail(served);
    // A glob's directories too: its match list is checked, but a match created after the check runs.
    const paths = [...new Set([...records.map((r) => r.key), ...links.keys(), ...pins.listed])];
    const trees = new Set(records.filter((r) => r.record?.startsWith('tree:')).map((r) => r.key));
    const before = await fingerprints(paths, trees);
    const overgrown = [...before].find(([, v]) => v === OVERGROWN);
    if (overgrown) return fail(`${overgrown[0]} changed while it was being verified`);
    // Checked again after the snapshot (cache hits while unchanged): a swap between the hash and
    // the snapshot would otherwise pass both.
    const checked = new Map(records.map((r) => [r.key, r.record]));
    const drifted = (await pinRecords(pins, c.cache)).records.find((r) => checked.get(r.key) !== r.record);
    if (drifted) return fail(`${drifted.key} changed while it was being verified`);
    // The record holds content, not mode: a guard run by its path whose x bit was dropped does not
    // run, and its 126 may be lost (`guard.sh || true`). An absent one is left to the records.
    const stuck = await notExecutable(pins.executed ?? []);
    if (stuck !== undefined) return fail(`${stuck} is run by its path but cannot be executed (its x bit was dropped?)`);
    return {
      where,
      ...(served ? { served } : {}),
      recheck: async () => {
        const after = await fingerprints(paths, trees);
        const moved = [...before].find(([k, v]) => after.get(k) !== v);
        return moved ? `trusted hook ${h.id}: ${moved[0]} changed while the hook ran; its answer does not count; ${c.how}` : undefined;
      },
    };
  };
}

/**
 * The records hold real paths, but the hook opens the paths it names (`sh lib/current/guard.sh`):
 * the links in their directory parts, each with the target it resolves to now, which must lead to
 * checked records. Served as such, and compared after the run: a link re-pointed after the check
 * would otherwise lead the hook to files nobody checked, the checked ones unchanged.
 */
async function linksOnTheWay(named: readonly string[], records: readonly PinRecord[]): Promise<Map<string, string> | string> {
  const keys = new Map(records.map((r) => [r.key, r.record]));
  const links = new Map<string, string>();
  for (const p of named) {
    if (!path.isAbsolute(p) || keys.get(p) === 'missing') continue;
    const changed = `${p} changed while it was being verified`;
    let at = '/';
    // Past a file (`x.sh/y`, recorded missing) the rest of the path is text.
    let text = false;
    for (const name of path
      .dirname(p)
      .split('/')
      .filter((n) => n !== '')) {
      const next = path.join(at, name);
      const st = text ? undefined : await fs.lstat(next).catch(() => undefined);
      if (st?.isSymbolicLink()) {
        const target = await fs.realpath(next).catch(() => undefined);
        if (target === undefined) return changed;
        links.set(next, target);
        at = target;
      } else if (st?.isDirectory() || text) at = next;
      else if (st !== undefined) [at, text] = [next, true];
      else return changed;
    }
    if (!keys.has(path.join(at, path.basename(p)))) return changed;
  }
  return links;
}

/** The first of `files` that exists but the user may not execute. */
async function notExecutable(files: readonly string[]): Promise<string | undefined> {
  for (const f of files) {
    const denied = await fs.access(f, constants.X_OK).then(
      () => false,
      (e: NodeJS.ErrnoException) => e.code !== 'ENOENT' && e.code !== 'ENOTDIR',
    );
    if (denied) return f;
  }
  return undefined;
}

/** A tree's fingerprint when it holds more entries than a tree record can (hash.ts): never equal to a real one. */
const OVERGROWN = 'overgrown';

/**
 * (device, inode, size, mtime, ctime) of every pinned path, by path; `missing` when absent. A tree
 * (a directory an interpreter runs, read in place) by those of every entry in it: a file rewritten
 * in place leaves its directory's own unchanged.
 */
async function fingerprints(paths: readonly string[], trees: ReadonlySet<string>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const p of paths) {
    if (!path.isAbsolute(p)) continue;
    const budget = { left: trees.has(p) ? MAX_TREE_FILES : 0 };
    out.set(p, await fingerprint(p, trees.has(p), budget));
  }
  return out;
}

async function fingerprint(p: string, tree: boolean, budget: { left: number }): Promise<string> {
  let own: string;
  let names: string[] = [];
  try {
    const s = await fs.lstat(p, { bigint: true });
    own = `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
    if (tree && s.isDirectory()) names = (await fs.readdir(p)).sort();
  } catch {
    return 'missing';
  }
  const lines = [own];
  for (const name of names) {
    if (--budget.left < 0) return OVERGROWN;
    const inner = await fingerprint(path.join(p, name), true, budget);
    if (inner === OVERGROWN) return OVERGROWN;
    lines.push(`${name}\0${inner}`);
  }
  return lines.join('\n');
}

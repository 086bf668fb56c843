/**
 * Gitignore-style path patterns of file permission rules (`Edit(src/**)`, `Read(~/.ssh/**)`),
 * matched with picomatch.
 *
 * Where a pattern is anchored (Claude's permission docs, "Read & Edit"):
 *   `//path`  absolute from the filesystem root       `Read(//etc/**)`
 *   `~/path`  from the home directory (ctx.homeDir)   `Read(~/.ssh/**)`
 *   `/path`   from the project root (ctx.projectDir, else ctx.cwd)
 *   `./path`, or a `path` with a `/` before its end   from ctx.cwd
 *   `name` with no `/` (a trailing `/` aside)          any depth, like gitignore: `*.ts` matches
 *                                                     `a.ts` and `x/y/a.ts`, also outside cwd
 * Rules that guard (an `if`, a deny or ask rule: withGuardReading) read two forms wider, as
 * Claude Code 2.1.328 does (test/agents/claude-diff: if-read-spellings, permissions.agents.test.ts):
 *   `./name` with no other `/`                          any depth, as `name` (`Read(./.env)` and
 *                                                     `sub/.env`, in `if` and deny rules)
 *   `name/**`, `./name/**` with no other `/`            the folder `name` at any depth (`Read(secrets/**)`
 *                                                     denied `x/secrets/key`; its `if` did not run
 *                                                     there, the engine's does)
 * Rules that grant keep both at ctx.cwd. A rule that guards also matches what the path reaches
 * through existing symbolic links (a Write follows them): `Write(.env)` matches `notes.txt -> .env`;
 * a rule that grants must cover those files too (grantThroughLinks).
 * As in gitignore, a pattern that matches a directory also matches everything under it, so
 * `src/*` matches `src/a/b.ts`, and `src/**` matches the directory `src` itself. `*` matches
 * dotfiles; a leading `!` is literal (one rule has nothing to negate).
 *
 * picomatch parses the glob; its regex runs on the linear-time engine (linear-regex.ts), since
 * picomatch's own lazy stars backtrack (several stars in one segment on a 4 KB path took seconds).
 * A glob whose regex needs lookaround (extglob negation `!(x)`: `*!(a)*!(a)*` took minutes on 80
 * characters) is refused with `unbounded: true`, never matched by picomatch.
 */
import picomatch from 'picomatch';
import { linkTargets, realOr } from '../util/real-path.js';
import { compileLinear } from './linear-regex.js';

interface PathMatchContext {
  cwd: string;
  homeDir?: string;
  projectDir?: string;
  /**
   * Names that differ only in case are one file here (macOS's and Windows's default file
   * systems): compare them ignoring case. Windows-shaped paths are always compared so.
   */
  foldCase?: boolean;
  /**
   * Compare names ignoring case whatever the platform, without composing them: Claude Code
   * 2.1.328 matches `Edit(.env)` against `.ENV` on Linux too, in `if` conditions and deny rules
   * (test/agents/claude-diff). Rules that guard pass it; a rule that grants does not.
   */
  ignoreCase?: boolean;
}

export interface PathPattern {
  readonly source: string;
  /** The tool's path is a file (or any single target). */
  testFile(path: string, ctx: PathMatchContext): boolean;
  /** The tool's path is a directory searched recursively (Glob, Grep, LS). */
  testDir(path: string, ctx: PathMatchContext): boolean;
}

type Anchor = 'root' | 'home' | 'project' | 'cwd' | 'anywhere';
type Matcher = (s: string) => boolean;

/** The pattern as written: what a rule that grants reads (withGuardReading adds a guard's reading). */
export type CompiledPath =
  | { ok: true; pattern: PathPattern }
  | { ok: false; error: string /** Valid, but not linear-time. */; unbounded?: true };

export function compilePathPattern(pattern: string): CompiledPath {
  if (typeof pattern !== 'string' || pattern.trim() === '') return { ok: false, error: 'empty path pattern' };
  return compileAnchored(pattern, anchorOf(pattern));
}

/**
 * A compiled pattern as a rule that guards (an `if`, a deny or ask rule) reads it: the same
 * pattern when its text has no wider reading, else both readings (the table at the top), so a
 * rule compiles its pattern once for both uses.
 */
export function withGuardReading(narrow: PathPattern): CompiledPath {
  const wide = guardReading(narrow.source);
  if (wide === undefined) return { ok: true, pattern: throughLinks(narrow) };
  // The guard's reading is added to the pattern as written, never put in its place: a search
  // that holds the folder (`Grep` of the project for `secrets/**`) still matches.
  const other = compileAnchored(narrow.source, wide);
  if (!other.ok) return other;
  const b = other.pattern;
  return {
    ok: true,
    pattern: throughLinks({
      source: narrow.source,
      testFile: (path, ctx) => narrow.testFile(path, ctx) || b.testFile(path, ctx),
      testDir: (path, ctx) => narrow.testDir(path, ctx) || b.testDir(path, ctx),
    }),
  };
}

/**
 * A guard also matches what the tool's path reaches through symbolic links: Write follows them,
 * so `ln -s .env notes.txt` then a Write of notes.txt writes .env. Either spelling matches. A
 * resolved spelling is also compared with the anchors resolved (a project reached through a link).
 */
function throughLinks(p: PathPattern): PathPattern {
  const either =
    (test: PathPattern['testFile']): PathPattern['testFile'] =>
    (path, ctx) => {
      if (test(path, ctx)) return true;
      const real = realAnchors(ctx);
      return linkedPaths(path, ctx).some((q) => q !== path && (test(q, ctx) || test(q, real)));
    };
  return { source: p.source, testFile: either(p.testFile), testDir: either(p.testDir) };
}

/**
 * A grant covers a path only when it also covers every file the path reaches through symbolic
 * links, the directory part's or the name's: Claude Code 2.1.328 refused a Write of `inlink/new.txt`
 * under `Edit(inlink/**)` (inlink -> realdir) and of `inside.txt -> target.txt` under
 * `Edit(inside.txt)` (test/agents/claude-diff `allow-write-through-link`).
 */
export function grantThroughLinks(p: PathPattern): PathPattern {
  const every =
    (test: PathPattern['testFile']): PathPattern['testFile'] =>
    (path, ctx) => {
      if (!test(path, ctx)) return false;
      const real = realAnchors(ctx);
      return linkedPaths(path, ctx).every((q) => q === path || test(q, real) || test(q, ctx));
    };
  return { source: p.source, testFile: every(p.testFile), testDir: every(p.testDir) };
}

/** The context with its anchor directories resolved through links, to compare a resolved path with. */
function realAnchors(ctx: PathMatchContext): PathMatchContext {
  const real = (d: string | undefined) => (typeof d === 'string' && d.startsWith('/') ? realOr(d) : d);
  return { ...ctx, cwd: real(ctx.cwd) ?? ctx.cwd, homeDir: real(ctx.homeDir), projectDir: real(ctx.projectDir) };
}

/** The files a tool's path reaches through links (util/real-path.ts); none for a Windows-shaped path, which this host cannot open. */
function linkedPaths(path: string, ctx: PathMatchContext): string[] {
  if (typeof path !== 'string' || path === '') return [];
  const cwd = cwdOf(ctx);
  let p = path;
  if ((p === '~' || p.startsWith('~/')) && typeof ctx.homeDir === 'string' && ctx.homeDir !== '') p = ctx.homeDir + p.slice(1);
  if (isWindowsPath(cwd) || /^[A-Za-z]:[\\/]|^\\\\/.test(p)) return [];
  // Not normalized: a `..` after a link is the kernel's to take.
  return linkTargets(p.startsWith('/') ? p : `${cwd}/${p}`);
}

function compileAnchored(pattern: string, [anchor, restIn]: [Anchor, string]): CompiledPath {
  const source = pattern;
  let rest = restIn;
  // A trailing slash means "directory"; we cannot stat, and a directory match covers its
  // contents anyway, so it is dropped.
  rest = rest.replace(/\/+$/, '');
  const wholeRoot = rest === '' || rest === '**';
  if (rest === '') rest = '**';

  let base = '';
  let exact: Matcher;
  let folded: Matcher;
  let composed: Matcher;
  try {
    const options = { dot: true, windows: false, nonegate: true } as const;
    exact = globMatcher(rest, options);
    folded = globMatcher(rest, { ...options, nocase: true });
    const nfc = rest.normalize('NFC');
    composed = nfc === rest ? folded : globMatcher(nfc, { ...options, nocase: true });
    base = picomatch.scan(rest).base;
  } catch (err) {
    return refusedPattern(pattern, err);
  }

  const rootOf = (ctx: PathMatchContext): string | undefined => {
    switch (anchor) {
      case 'root':
        return '/';
      case 'home':
        return typeof ctx.homeDir === 'string' && ctx.homeDir !== '' ? normalizeAbsolute(ctx.homeDir, '/') : undefined;
      case 'project':
        return cwdOf({ ...ctx, cwd: typeof ctx.projectDir === 'string' && ctx.projectDir !== '' ? ctx.projectDir : ctx.cwd });
      default:
        return cwdOf(ctx);
    }
  };

  const testFile = (path: string, ctx: PathMatchContext): boolean => {
    const resolved = resolveToolPath(path, ctx);
    if (resolved === undefined) return false;
    const fold = foldOf(ctx, resolved);
    const abs = keyOf(resolved, fold === 'composed' ? fold : 'exact');
    const match = fold === 'composed' ? composed : fold === 'case' ? folded : exact;
    if (anchor === 'anywhere') {
      const cwd = cwdOf(ctx);
      const rel = relativeTo(abs, cwd, fold) ?? abs;
      return rel.split('/').some((segment) => segment !== '' && match(segment));
    }
    const root = rootOf(ctx);
    if (root === undefined) return false;
    const rel = relativeTo(abs, root, fold);
    if (rel === undefined) return false;
    if (rel === '') return wholeRoot;
    return selfOrAncestorMatches(rel, match);
  };

  const testDir = (path: string, ctx: PathMatchContext): boolean => {
    if (testFile(path, ctx)) return true;
    // An any-depth pattern is checked against the searched path only: otherwise `Read(*.pem)`
    // would fire on every search. Anchored patterns also match when the search covers them.
    if (anchor === 'anywhere') return false;
    const resolved = resolveToolPath(path, ctx);
    const root = rootOf(ctx);
    if (resolved === undefined || root === undefined) return false;
    const fold = foldOf(ctx, resolved);
    const abs = keyOf(resolved, fold === 'composed' ? fold : 'exact');
    const rel = relativeTo(abs, root, fold);
    if (rel === undefined) return relativeTo(root, abs, fold) !== undefined; // the search contains the root
    if (rel === '' || base === '') return true;
    // The search covers the pattern's fixed base, or lies inside it (an over-approximation
    // for patterns like `src/*.ts` searched from `src/deep`: best effort, the hook runs).
    // Names ignore case where testFile's match does.
    const b = keyOf(base, fold);
    const r = keyOf(rel, fold);
    return b === r || b.startsWith(`${r}/`) || r.startsWith(`${b}/`);
  };

  return { ok: true, pattern: { source, testFile, testDir } };
}

/** Where a pattern is anchored (the table at the top of this file), and the rest of it. */
function anchorOf(pattern: string): [Anchor, string] {
  if (pattern.startsWith('//')) return ['root', pattern.slice(2)];
  if (pattern === '~' || pattern.startsWith('~/')) return ['home', pattern.slice(2)];
  if (pattern.startsWith('/')) return ['project', pattern.slice(1)];
  if (pattern.startsWith('./')) return ['cwd', pattern.slice(2)];
  return [pattern.replace(/\/+$/, '').includes('/') ? 'cwd' : 'anywhere', pattern];
}

/**
 * The wider reading a guard adds (the table at the top), or undefined when it reads the pattern
 * as written: `./name` as `name`, `name/**` and `./name/**` as the folder `name`, at any depth.
 */
function guardReading(pattern: string): [Anchor, string] | undefined {
  const rest = pattern.startsWith('./') ? pattern.slice(2) : pattern;
  const stem = rest.replace(/\/+$/, '');
  if (stem.endsWith('/**') && stem.length > 3 && !stem.slice(0, -3).includes('/')) return ['anywhere', stem.slice(0, -3)];
  if (pattern.startsWith('./') && stem !== '' && !stem.includes('/')) return ['anywhere', rest];
  return undefined;
}

/**
 * Lookarounds picomatch emits that RE2 lacks, each a no-op on the paths matched here: they
 * are normalized (normalizeAbsolute), so no segment is empty, `.` or `..`, none ends in `/`,
 * and a segment's star never starts at the end of the value.
 */
const NOOP_GUARDS = ['(?!(?:^|\\/)\\.{1,2}(?:\\/|$))', '(?!\\.{1,2}(?:\\/|$))', '(?!\\.{0,1}(?:\\/|$))', '(?=.)'];

/** The picomatch options we set, declared here: @types/picomatch is not a dependency of ours, so shipped declarations cannot name it. */
export interface GlobOptions {
  dot?: boolean;
  windows?: boolean;
  nonegate?: boolean;
  nocase?: boolean;
}

/** A glob RE2 cannot run (globMatcher): refused, never handed to picomatch's backtracking matcher. */
class UnboundedGlobError extends Error {}

function refusedPattern(pattern: string, err: unknown): CompiledPath {
  if (err instanceof UnboundedGlobError)
    return { ok: false, error: `path pattern ${JSON.stringify(pattern)} ${err.message}`, unbounded: true };
  return { ok: false, error: `invalid path pattern ${JSON.stringify(pattern)}: ${err instanceof Error ? err.message : String(err)}` };
}

/** A glob as a linear-time test; throws UnboundedGlobError when its regex needs lookaround after the no-op guards are dropped. */
export function globMatcher(glob: string, options: GlobOptions): Matcher {
  const re = picomatch.makeRe(glob, options);
  let source = re.source;
  for (const guard of NOOP_GUARDS) source = source.split(guard).join('');
  // picomatch escapes non-ASCII letters (`caf\é`), which RE2 refuses; unescaped they mean the same.
  source = source.replace(/\\(.)/gsu, (pair, ch: string) => (ch.charCodeAt(0) > 0x7f ? ch : pair));
  const linear = compileLinear(source, { ignoreCase: re.flags.includes('i') });
  if (!linear.ok)
    throw new UnboundedGlobError(`cannot be matched in bounded time (extglob negation or another lookaround): ${linear.error}`);
  return (s) => linear.re.test(s);
}

/** gitignore: a path matches when it, or a directory above it, matches. */
function selfOrAncestorMatches(rel: string, match: Matcher): boolean {
  let candidate = rel;
  for (;;) {
    if (match(candidate)) return true;
    const cut = candidate.lastIndexOf('/');
    if (cut <= 0) return false;
    candidate = candidate.slice(0, cut);
  }
}

function isWindowsPath(p: string): boolean {
  return /^[A-Za-z]:(?:\/|$)/.test(p) || p.startsWith('//');
}

function cwdOf(ctx: PathMatchContext): string {
  const cwd = typeof ctx?.cwd === 'string' && ctx.cwd !== '' ? ctx.cwd : '/';
  return normalizeAbsolute(cwd, '/');
}

/**
 * The absolute, normalized form of a tool path: `~/` expanded (when homeDir is known),
 * Windows backslashes turned into `/`, relative paths (ApplyPatch headers) resolved
 * against cwd. Undefined when the path is unusable.
 */
function resolveToolPath(path: string, ctx: PathMatchContext): string | undefined {
  if (typeof path !== 'string' || path === '') return undefined;
  let p = path;
  if ((p === '~' || p.startsWith('~/')) && typeof ctx.homeDir === 'string' && ctx.homeDir !== '') {
    p = ctx.homeDir + p.slice(1);
  }
  return normalizeAbsolute(p, cwdOf(ctx));
}

function normalizeAbsolute(path: string, cwd: string): string {
  // Backslashes are separators only for Windows: a Windows-shaped path, or a relative one (an
  // ApplyPatch header, `sub\.env`) under a Windows-shaped cwd. Elsewhere they are file-name characters.
  const windows = /^[A-Za-z]:[\\/]|^\\\\/.test(path) || (!path.startsWith('/') && isWindowsPath(cwd));
  let p = windows ? path.replace(/\\/g, '/') : path;
  const absolute = p.startsWith('/') || /^[A-Za-z]:(?:\/|$)/.test(p);
  if (!absolute) p = `${cwd}/${p}`;
  const unc = p.startsWith('//') && !p.startsWith('///');
  const drive = /^[A-Za-z]:/.exec(p)?.[0];
  const body = drive ? p.slice(drive.length) : p;
  const out: string[] = [];
  for (const raw of body.split('/')) {
    const segment = windows || drive || unc ? windowsName(raw) : raw;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  const joined = out.join('/');
  if (drive) return `${drive}/${joined}`;
  return (unc ? '//' : '/') + joined;
}

/**
 * A path component as Windows opens it: a stream suffix (`.env::$DATA`, `.env:x`) names the same
 * file, and trailing dots and spaces are dropped (`.env.` and `.env ` are `.env`); `.` and `..`
 * stay what they are.
 */
function windowsName(segment: string): string {
  if (segment === '.' || segment === '..') return segment;
  const colon = segment.indexOf(':');
  const name = colon >= 0 ? segment.slice(0, colon) : segment;
  return name.replace(/[. ]+$/, '');
}

/**
 * How names are compared: `exact`; ignoring `case`, as Windows does for Windows-shaped paths; or
 * ignoring case and `composed` (NFC) where the caller says names fold (PathMatchContext.foldCase:
 * macOS's file systems ignore both). Only the caller's word composes: NTFS keeps `é` and `e` with
 * an accent apart, and composing there would make an allow rule cover another file.
 */
type Fold = 'exact' | 'case' | 'composed';

function foldOf(ctx: PathMatchContext, path: string): Fold {
  return ctx.foldCase === true ? 'composed' : ctx.ignoreCase === true || isWindowsPath(path) ? 'case' : 'exact';
}

/** A name or path as it is compared under `fold`. */
function keyOf(name: string, fold: Fold): string {
  if (fold === 'exact') return name;
  return (fold === 'composed' ? name.normalize('NFC') : name).toLowerCase();
}

/**
 * `abs` relative to `root` ('' for the root itself), or undefined when it lies outside; folded as
 * `fold` says, and at least ignoring case when either path is Windows-shaped. Folded, the paths
 * are compared name by name and the rest is cut from `abs` by names, not by the length of a
 * lower-cased prefix: a name can change length when lower-cased (`İ` becomes two code units).
 */
function relativeTo(abs: string, root: string, fold: Fold): string | undefined {
  if (root === '/') return abs.replace(/^\/+/, '');
  const mode = fold === 'exact' && (isWindowsPath(abs) || isWindowsPath(root)) ? 'case' : fold;
  if (mode === 'exact') {
    if (abs === root) return '';
    const prefix = root.endsWith('/') ? root : `${root}/`;
    return abs.startsWith(prefix) ? abs.slice(prefix.length) : undefined;
  }
  const a = abs.split('/');
  const r = root.replace(/\/+$/, '').split('/');
  if (r.length > a.length) return undefined;
  for (let i = 0; i < r.length; i++) if (keyOf(a[i]!, mode) !== keyOf(r[i]!, mode)) return undefined;
  return a.slice(r.length).join('/');
}

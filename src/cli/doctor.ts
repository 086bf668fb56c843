/**
 * `agent-hooks doctor`: what `check` cannot see from the config alone, per hook (docs/cli.md,
 * "doctor"): the script exists and is executable, its shebang interpreter and the tools it
 * calls are on PATH, trust state and what changed, timeouts that look like milliseconds, and
 * Bash-only syntax run by `sh`; plus which other agents' hook files exist and whether they are
 * discovered.
 *
 * Exit codes: 0 no errors (warnings allowed), 1 at least one error (a hook that cannot run as
 * configured, or a config error), 1 on usage errors.
 */
import type { Stats } from 'node:fs';
import { readFileSync, statSync } from 'node:fs';
import { isExecutableFile } from '../util/file-kind.js';
import { homedir } from 'node:os';
import { delimiter, join, basename, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { forEachChild, parse, type SyntaxNode } from 'unbash';
import { loadConfig } from '../config/index.js';
import { DIALECT_NAMES } from '../agents/types.js';
import { discoveryFilesOf, getDialect } from '../agents/all.js';
import { undeliverableWarnings } from '../agents/shared/undeliverable.js';
import type { CommandHandler, Diagnostic, NormalizedHook } from '../types.js';
import { loadOptionsFromFlags, type LoadFlags } from '../load/from-flags.js';
import { formatDiagnostic } from '../util/format-diagnostic.js';
import { confinementFindings } from './doctor-confinement.js';
import { environmentFindings, type EnvironmentFinding } from './doctor-environment.js';
import { missingScriptMessage } from './doctor-missing-script.js';
import { styles } from './style.js';
import { shebangOf } from '../trust/pins/includes.js';
import { oneLine } from '../util/terminal-text.js';

export interface Finding {
  level: 'error' | 'warning' | 'info';
  message: string;
}

export interface HookReport {
  id: string;
  event: string;
  matcher?: string;
  type: string;
  source: { kind: string; file?: string; path: string };
  trust?: { state: string; changes: string[] };
  findings: Finding[];
}

export interface DoctorReport {
  hooks: HookReport[];
  /** What the environment `doctor` runs in costs every hook run (not per hook); notes, not counted. */
  environment: EnvironmentFinding[];
  dialects: { dialect: string; kind: string; file: string; discovered: boolean }[];
  diagnostics: { level: string; file?: string; path: string; message: string }[];
  errors: number;
  warnings: number;
}

/** Interpreters whose first path argument is the script they run. */
const INTERPRETERS = new Set(['sh', 'bash', 'dash', 'zsh', 'python', 'python3', 'node', 'bun', 'deno', 'ruby', 'perl', 'tsx', 'ts-node']);
/** Tools hooks commonly call; a missing one makes a guard fail open (docs/cli.md). */
const TOOLS = ['jq', 'python3', 'python', 'node', 'bun', 'uv', 'deno', 'npx', 'yq'];
/** Words the shell runs itself (no PATH lookup). */
const BUILTINS = new Set([
  'echo',
  'printf',
  'exit',
  'true',
  'false',
  'test',
  '[',
  'cd',
  'read',
  'set',
  'export',
  'eval',
  'exec',
  ':',
  '.',
  'source',
  'if',
  'for',
  'while',
  'case',
  'command',
  'trap',
  'wait',
  'shift',
  'return',
  'local',
  'unset',
]);

/** Bash-only constructs (unbash node types) that `sh` (dash) rejects or runs differently. */
const BASH_ONLY: Record<string, string> = {
  TestCommand: '[[ … ]]',
  ProcessSubstitution: 'process substitution <(…)',
  HereString: 'here-string <<<',
  ArrayValue: 'arrays (a=(…))',
  AnsiCQuoted: "$'…' quoting",
  BraceExpansion: 'brace expansion {a,b}',
  ArithmeticCommand: '(( … ))',
  ArithmeticFor: 'for (( … ))',
  Coproc: 'coproc',
  Select: 'select',
};

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  if (name.includes('/')) return isExecutableFile(name) ? name : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, name);
    if (isExecutableFile(p)) return p;
  }
  return undefined;
}

function readHead(p: string, bytes = 256 * 1024): string | undefined {
  try {
    return readFileSync(p).subarray(0, bytes).toString('utf8');
  } catch {
    return undefined;
  }
}

/** Bash-only constructs in a shell text, by name, in first-seen order. */
export function bashOnlySyntax(text: string): string[] {
  const found = new Set<string>();
  try {
    const visit = (node: SyntaxNode): void => {
      const what = BASH_ONLY[node.type];
      if (what) found.add(what);
      if (node.type === 'Function' && /^\s*function\s/.test(text.slice(node.pos, node.end))) found.add('the function keyword');
      forEachChild(node, visit);
    };
    visit(parse(text));
  } catch {
    // unparsable: sh -n below reports it
  }
  return [...found];
}

/** `sh -n` on the text: the syntax error dash reports, or undefined. */
function shSyntaxError(text: string): string | undefined {
  const r = spawnSync('sh', ['-n'], { input: text, encoding: 'utf8', timeout: 10_000 });
  if (r.status === 0 || r.error) return undefined;
  return r.stderr.trim().split('\n')[0]?.replace(/^sh: /, '');
}

/** Tools from TOOLS that the text runs as a command word (not in comments). */
function toolsCalled(text: string): string[] {
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    const code = line.replace(/(^|\s)#.*$/, '');
    for (const t of TOOLS) if (new RegExp(`(^|[\\s|;&(\`$])${t}(?=[\\s;|&)]|$)`).test(code)) out.add(t);
  }
  return [...out];
}

/** The program word and its arguments of the first simple command of a shell line. */
function firstCommand(command: string): string[] {
  let words: string[] | undefined;
  try {
    const visit = (node: SyntaxNode): void => {
      if (words) return;
      if (node.type === 'Command' && node.name) {
        words = [
          node.name.value,
          ...node.suffix.filter((s): s is typeof s & { type: 'Word'; value: string } => s.type === 'Word').map((w) => w.value),
        ];
        return;
      }
      forEachChild(node, visit);
    };
    visit(parse(command));
  } catch {
    // fall through
  }
  return words ?? command.trim().split(/\s+/);
}

function substitute(word: string, hook: NormalizedHook, projectDir: string, home: string): string {
  const vars: Record<string, string | undefined> = {
    CLAUDE_PROJECT_DIR: projectDir,
    CLAUDE_PLUGIN_ROOT: hook.source.pluginRoot ?? hook.source.skillRoot,
    CLAUDE_PLUGIN_DATA: hook.source.pluginData,
    HOME: home,
  };
  let out = word.replace(/\$\{(\w+)\}|\$(\w+)/g, (m, a?: string, b?: string) => vars[(a ?? b)!] ?? m);
  if (out.startsWith('~/')) out = home + out.slice(1);
  return out;
}

function commandFindings(hook: NormalizedHook, h: CommandHandler, projectDir: string, env: NodeJS.ProcessEnv): Finding[] {
  const out: Finding[] = [];
  const home = env.HOME ?? homedir();
  const words = (h.args !== undefined ? [h.command, ...h.args] : firstCommand(h.command)).map((w) => substitute(w, hook, projectDir, home));
  const program = words[0] ?? '';
  const shell = h.shell ?? 'sh';
  const texts: { what: string; text: string; sh: boolean }[] = [];
  if (h.args === undefined && shell === 'sh') texts.push({ what: 'the command', text: h.command, sh: true });

  let script: string | undefined;
  let direct = false;
  const isPath = (w: string) => w.includes('/');
  if (isPath(program)) {
    script = resolve(projectDir, program);
    direct = true;
  } else if (INTERPRETERS.has(program)) {
    const arg = words.slice(1).find((w) => !w.startsWith('-'));
    if (arg && (isPath(arg) || /\.(sh|py|js|mjs|cjs|ts|rb|pl)$/.test(arg))) script = resolve(projectDir, arg);
    if (!onPath(program, env)) out.push({ level: 'error', message: `${program} is not on PATH: the hook exits 127 (command not found)` });
  } else if (program && !BUILTINS.has(program) && !program.startsWith('$') && !onPath(program, env)) {
    out.push({ level: 'error', message: `${program} is not on PATH: the hook exits 127 (command not found)` });
  }

  if (script) {
    let st: Stats | undefined;
    try {
      st = statSync(script);
    } catch {
      // Run by an interpreter, the exit code is the interpreter's own (python3's is 2, a block).
      out.push({
        level: 'error',
        message: missingScriptMessage(direct || !onPath(program, env) ? undefined : program, script, hook.event, env),
      });
    }
    if (st && !st.isFile()) out.push({ level: 'error', message: `${script} is not a file` });
    else if (st) {
      if (direct && !isExecutableFile(script))
        out.push({ level: 'error', message: `script ${script} is not executable: the hook exits 126 (chmod +x ${basename(script)})` });
      const text = readHead(script) ?? '';
      const shebang = shebangOf(text);
      const interp = program !== script && INTERPRETERS.has(program) ? program : shebang?.viaEnv ? shebang.interpreter : shebang?.program;
      if (direct && !shebang)
        out.push({ level: 'warning', message: `script ${script} has no #! line: it runs under sh whatever it is written in` });
      if (direct && interp && !onPath(interp, env))
        out.push({ level: 'error', message: `the script's interpreter ${interp} (from its #! line) is not on PATH: the hook exits 127` });
      const lang = interp ? basename(interp) : 'sh';
      if (lang === 'sh' || lang === 'dash') texts.push({ what: `script ${basename(script)} (run by sh)`, text, sh: true });
      else if (lang === 'bash' || lang === 'zsh') texts.push({ what: `script ${basename(script)}`, text, sh: false });
      for (const t of toolsCalled(lang === 'sh' || lang === 'dash' || lang === 'bash' || lang === 'zsh' ? text : '')) {
        if (!onPath(t, env))
          out.push({
            level: 'error',
            message: `script ${basename(script)} calls ${t}, which is not on PATH: that step fails and a guard built on it lets everything through`,
          });
      }
    }
  }
  for (const t of toolsCalled(h.command)) {
    if (t !== program && !onPath(t, env)) out.push({ level: 'error', message: `the command calls ${t}, which is not on PATH` });
  }
  for (const t of texts) {
    if (!t.sh) continue;
    const bashisms = bashOnlySyntax(t.text);
    const err = shSyntaxError(t.text);
    if (bashisms.length > 0 || err) {
      out.push({
        level: err ? 'error' : 'warning',
        message: `${t.what} uses Bash-only syntax (${bashisms.join(', ') || err}) but runs under sh${err ? `, which rejects it: ${err}` : ''}; set "shell": "bash" on the hook, or #!/bin/bash in the script`,
      });
    }
  }
  return out;
}

function hookFindings(hook: NormalizedHook, projectDir: string, env: NodeJS.ProcessEnv): Finding[] {
  return hook.handler.type === 'command' ? commandFindings(hook, hook.handler as CommandHandler, projectDir, env) : [];
}

export async function doctor(flags: LoadFlags, env: NodeJS.ProcessEnv = process.env): Promise<DoctorReport> {
  const built = loadOptionsFromFlags(flags);
  if ('error' in built)
    return { hooks: [], environment: environmentFindings(env), dialects: [], diagnostics: [built.error], errors: 1, warnings: 0 };
  const { options, cwd } = built;
  // Every hook, trusted or not: doctor looks at what would run once trusted too (it runs
  // nothing, so reading past the trust gate is safe here; the gate's verdict is shown per hook).
  const config = await loadConfig({ ...options, unsafeSkipTrustGate: true });
  let trustOf = new Map<string, { state: string; changes: string[] }>();
  if (options.discover) {
    const { loadTrustedConfig, describeChange } = await import('../trust/index.js');
    const { trust } = await loadTrustedConfig(options, { workspaceDir: cwd });
    trustOf = new Map(
      trust.hooks.filter((h) => h.needsTrust).map((h) => [h.id, { state: h.state, changes: h.changes.map(describeChange) }]),
    );
  }
  // The load's lint findings about one hook (src/lint/hooks.ts) are shown under that hook.
  const about = (h: NormalizedHook) => (d: Diagnostic) => d.file === h.source.file && d.path === h.source.path;
  const hooks: HookReport[] = config.hooks.map((h) => {
    const trust = trustOf.get(h.id);
    const findings = [
      ...config.diagnostics.filter(about(h)).map((d) => ({ level: d.level, message: d.message })),
      ...hookFindings(h, cwd, env),
    ];
    // A hook in an agent's own file that the agent never runs (src/agents/shared/undeliverable.ts).
    const own = h.dialect ? getDialect(h.dialect) : undefined;
    if (own?.undeliverable)
      findings.push(...undeliverableWarnings(own.title, own.undeliverable, [h]).map((d) => ({ level: d.level, message: d.message })));
    if (trust && trust.state !== 'trusted') {
      findings.push({
        level: 'warning',
        message: `not trusted (${trust.state}${trust.changes.length ? `: ${trust.changes.join('; ')}` : ''}): skipped until \`agent-hooks trust --cwd ${cwd}\``,
      });
    }
    return {
      id: h.id,
      event: h.event,
      ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
      type: h.handler.type,
      source: { kind: h.source.kind, ...(h.source.file ? { file: h.source.file } : {}), path: h.source.path },
      ...(trust ? { trust } : {}),
      findings,
    };
  });
  const read = new Set(config.files.filter((f) => f.ok).map((f) => f.file));
  const foreign = DIALECT_NAMES.filter((d) => d !== 'claude');
  const dialects = discoveryFilesOf(foreign, { projectDir: cwd, homeDir: env.HOME ?? homedir(), env })
    .filter((f) => {
      try {
        return statSync(f.file).isFile();
      } catch {
        return false;
      }
    })
    .map((f) => ({ dialect: f.dialect, kind: f.kind, file: f.file, discovered: read.has(f.file) }));
  const diagnostics = [
    ...config.diagnostics.filter((d) => !config.hooks.some((h) => about(h)(d))).map((d) => ({ ...d })),
    ...(await confinementFindings(config, dialects)),
  ];
  const all = [...hooks.flatMap((h) => h.findings), ...diagnostics];
  return {
    hooks,
    environment: environmentFindings(env),
    dialects,
    diagnostics,
    errors: all.filter((f) => f.level === 'error').length,
    warnings: all.filter((f) => f.level === 'warning').length + dialects.filter((d) => !d.discovered).length,
  };
}

export function formatDoctor(r: DoctorReport): string {
  const s = styles();
  const lines: string[] = [];
  for (const d of r.diagnostics) lines.push(d.level === 'error' ? s.red(formatDiagnostic(d)) : s.yellow(formatDiagnostic(d)));
  if (r.hooks.length === 0) lines.push('no hooks found');
  for (const h of r.hooks) {
    const bad = h.findings.some((f) => f.level === 'error');
    const warn = h.findings.some((f) => f.level === 'warning');
    const mark = bad ? s.red('✗') : warn ? s.yellow('!') : s.green('✓');
    lines.push(
      `${mark} ${s.bold(h.event)}${h.matcher ? ` ${oneLine(h.matcher)}` : ''} ${h.type}  ${s.dim(oneLine([h.source.kind, h.source.file, h.source.path].filter(Boolean).join(' ')))}`,
    );
    if (h.trust) lines.push(`    trust: ${h.trust.state}`);
    for (const f of h.findings)
      lines.push(
        `    ${f.level === 'error' ? s.red('error:') : f.level === 'warning' ? s.yellow('warning:') : 'note:'} ${oneLine(f.message)}`,
      );
  }
  for (const d of r.dialects) {
    lines.push(
      d.discovered
        ? `${s.green('✓')} ${d.dialect} ${d.kind} file ${oneLine(d.file)}: discovered`
        : `${s.yellow('!')} ${d.dialect} ${d.kind} file ${oneLine(d.file)} exists but is not read: add --discover-dialects ${d.dialect} (or agentHooks.discoverDialects in your user settings)`,
    );
  }
  for (const f of r.environment) lines.push(`note: ${oneLine(f.message)}`);
  lines.push(`${r.hooks.length} hook(s), ${r.errors} error(s), ${r.warnings} warning(s)`);
  return `${lines.join('\n')}\n`;
}

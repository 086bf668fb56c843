/**
 * The CLI's cold start: `--version`, `--help` and a command's `--help` load only the command
 * definitions (commander and a few light modules); the engine, config, server, toolkit, MCP SDK
 * and YAML load when an action needs them. Checked at run time: a module hook registered with
 * `--import` records every URL the process resolves. (Figures: docs/performance.md.)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { EVENT_NAMES } from '../../src/events/catalog.js';
import { LANGS } from '../../src/toolkit/init.js';
import { FIRST_EVENT_NAMES } from '../../src/cli/main.js';
import { LANG_CHOICES } from '../../src/cli/commands/init.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = `${ROOT}dist/cli/bin.cjs`;
const MAIN = `${ROOT}dist/cli/main.js`;

let dir: TempDir;
beforeAll(() => {
  if (!existsSync(BIN)) throw new Error('dist/cli/bin.cjs is missing: run `npm run build` first (npm test does)');
});
beforeEach(() => {
  dir = tempDir();
  // Resolve hooks run on their own thread; appending to a file is the simplest channel back.
  dir.write(
    'hooks.mjs',
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(process.env.AGENT_HOOKS_RESOLVE_LOG, 'esm ' + r.url + '\\n');
  return r;
}
`,
  );
  dir.write('register.mjs', `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`);
  // CommonJS files (bin.cjs, dispatch's no-hooks check) load through require(), which the ES hooks
  // above do not see on Node 20: a preload records what require() resolves, to the same log.
  dir.write(
    'register.cjs',
    `const Module = require('node:module');
const { appendFileSync } = require('node:fs');
const { pathToFileURL } = require('node:url');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (...args) {
  const file = resolveFilename.apply(this, args);
  if (file.startsWith('/')) appendFileSync(process.env.AGENT_HOOKS_RESOLVE_LOG, pathToFileURL(file).href + '\\n');
  return file;
};
process.on('exit', () => appendFileSync(process.env.AGENT_HOOKS_RESOLVE_LOG, process.moduleLoadList.map((m) => 'node ' + m).join('\\n') + '\\n'));
`,
  );
});
afterEach(() => dir.cleanup());

/**
 * The modules a process resolved: files under dist/ relative to it, packages by name; `esm`, the
 * files under dist/ that went through the ES loader; `builtins`, Node's own modules it loaded.
 */
function resolvedBy(args: string[]): ReturnType<typeof resolvedByWith> {
  return resolvedByWith(args, '', {});
}

function resolvedByWith(
  args: string[],
  input: string,
  env: Record<string, string>,
): { dist: string[]; esm: string[]; packages: string[]; builtins: string[]; stdout: string; stderr: string; code: number | null } {
  const log = dir.path('resolved.log');
  rmSync(log, { force: true });
  const r = spawnSync(
    process.execPath,
    ['--require', dir.path('register.cjs'), '--import', pathToFileURL(dir.path('register.mjs')).href, ...args],
    {
      cwd: dir.root,
      encoding: 'utf8',
      timeout: 30_000,
      input,
      env: { ...process.env, ...env, AGENT_HOOKS_RESOLVE_LOG: log },
    },
  );
  const urls = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
  const dist = new Set<string>();
  const esm = new Set<string>();
  const packages = new Set<string>();
  const builtins = urls.flatMap((l) => (l.startsWith('node NativeModule ') ? [l.slice('node NativeModule '.length)] : []));
  for (const line of urls) {
    const url = line.replace(/^esm /, '');
    if (!url.startsWith('file:')) continue;
    const path = fileURLToPath(url);
    const pkg = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(path);
    if (pkg) packages.add(pkg[1]!.replace(/\\/g, '/'));
    else if (path.startsWith(`${ROOT}dist`)) {
      const rel = path.slice(ROOT.length + 'dist/'.length).replace(/\\/g, '/');
      dist.add(rel);
      if (line !== url) esm.add(rel);
    }
  }
  return {
    dist: [...dist].sort(),
    esm: [...esm].sort(),
    packages: [...packages].sort(),
    builtins,
    stdout: r.stdout,
    stderr: r.stderr,
    code: r.status,
  };
}

const HEAVY_PACKAGES = ['zod', 'undici', 'hono', 'yaml', '@modelcontextprotocol/sdk', 'smol-toml', 'diff', 'lru-cache'];
const HEAVY_DIRS = [
  'engine/',
  'events/',
  'config/',
  'backends/',
  'trust/',
  'serve/',
  'host/',
  'toolkit/',
  'mcp/',
  'dispatch/',
  'lint/',
  'load/',
];
/** The zod-free event facts (test/events/facts.test.ts proves they load no zod): `run --help` lists events from them. */
const LEAN_EVENT_MODULES = ['events/facts.js', 'events/facts-prompt-tool.js', 'events/facts-lifecycle.js'];
/** The facts (tables) of the agents other than Claude (src/agents/<name>/facts.ts). */
const OTHER_DIALECTS = ['codex', 'gemini', 'qwen', 'kimi', 'cursor', 'copilot', 'droid'].map((d) => `dist/agents/${d}/facts.js`);

/** What `run` with a Claude file named with --settings does not load (src/agents/shared/foreign-settings.ts). */
const NOT_FOR_A_CLAUDE_FILE = /^(dist\/)?agents\/(registry\.js|all\.js|[a-z]+\/(index|wire)\.js|shared\/wire\.js)$/;

function expectLight(r: ReturnType<typeof resolvedBy>): void {
  // The recorder works: the CLI and commander were seen.
  expect(r.dist).toContain('cli/main.js');
  expect(r.packages).toContain('commander');
  for (const p of HEAVY_PACKAGES) expect(r.packages, p).not.toContain(p);
  for (const d of HEAVY_DIRS)
    expect(
      r.dist.filter((f) => f.startsWith(d) && !LEAN_EVENT_MODULES.includes(f)),
      d,
    ).toEqual([]);
  expect(r.dist).not.toContain('load/from-flags.js');
  expect(r.dist).not.toContain('cli/commands/trust-actions.js');
}

test('importing dist/cli/main.js loads only the command definitions', () => {
  const r = resolvedBy(['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(MAIN).href)});`]);
  expect(r.code).toBe(0);
  expectLight(r);
  expect(r.packages).toEqual(['commander']);
});

test('--version and every command --help stay light', () => {
  const v = resolvedBy([BIN, '--version']);
  expect(v.stdout).toBe('0.1.0\n');
  expectLight(v);
  for (const cmd of ['run', 'test', 'serve', 'init', 'convert', 'trust', 'mcp-proxy']) {
    const r = resolvedBy([BIN, cmd, '--help']);
    expect(r.code, cmd).toBe(0);
    expect(r.stdout, cmd).toContain(`Usage: agent-hooks ${cmd}`);
    expectLight(r);
  }
});

test('run with command hooks loads the engine but not the HTTP client, trust store, server, toolkit, YAML or MCP SDK', () => {
  const settings = dir.json('settings.json', { hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'true' }] }] } });
  // The plain-module entry (same code as the bundle bin.cjs runs) shows which modules load.
  const entry = pathToFileURL(`${ROOT}dist/cli/run-entry.js`).href;
  const r = resolvedBy([
    '--input-type=module',
    '-e',
    `const m = await import(${JSON.stringify(entry)}); process.exitCode = await m.main(['PreToolUse', '--settings', ${JSON.stringify(settings)}, '--tool', 'Bash', '--input', '{}']);`,
  ]);
  expect(r.stdout).toContain('no hooks matched');
  expect(r.packages).not.toContain('commander');
  expect(r.code).toBe(0);
  expect(r.dist).toContain('engine/engine.js');
  for (const p of ['undici', 'lru-cache', 'hono', 'yaml', '@modelcontextprotocol/sdk', 'diff']) expect(r.packages, p).not.toContain(p);
  // A Claude file named with --settings is detected by the detectors alone: no agent's adapter,
  // wire codec or tables, nor the registry that lists the adapters.
  expect(r.dist).toContain('agents/detectors.js');
  expect(r.dist.filter((f) => NOT_FOR_A_CLAUDE_FILE.test(f) || OTHER_DIALECTS.includes(`dist/${f}`))).toEqual([]);
  // toolkit/sample.js (catalog-only) gives run its default payloads; the rest of the toolkit stays out.
  const loaded = r.dist.filter((f) => f !== 'toolkit/sample.js');
  for (const d of ['serve/', 'host/', 'toolkit/', 'trust/', 'backends/http.js', 'backends/prompt.js'])
    expect(
      loaded.filter((f) => f.startsWith(d)),
      d,
    ).toEqual([]);
});

test('dispatch with a user-level hook loads no trust code; a project hook loads the gate', () => {
  const home = dir.path('home');
  dir.json('home/.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] } });
  const payload = JSON.stringify({
    session_id: 's',
    transcript_path: '',
    cwd: dir.root,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'ls' },
  });
  // The plain-module entry (same code as the bundle bin.cjs runs) shows which modules load.
  const run = () =>
    resolvedByWith([`${ROOT}dist/cli/dispatch.js`, '--agent', 'claude'], payload, {
      HOME: home,
      AGENT_HOOKS_TRUST_STORE: dir.path('trust.json'),
    });
  const user = run();
  expect(user.code).toBe(0);
  expect(user.dist).toContain('engine/engine.js'); // the hook ran through the engine
  expect(user.dist.filter((f) => f.startsWith('trust/'))).toEqual([]);
  for (const p of ['proper-lockfile', 'write-file-atomic']) expect(user.packages, p).not.toContain(p);

  dir.json('.claude/settings.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo project-hook-ran >&2; exit 2' }] }] },
  });
  const project = run();
  expect(project.dist).toContain('trust/gate.js');
  // Untrusted project hook: skipped (not run), the user hook still runs.
  expect(project.code).toBe(0);
  expect(project.stderr).not.toContain('project-hook-ran');
  expect(project.stderr).toContain('trust');
});

test('bundled dispatch in a trusted project runs its hook without zod, the lock or the atomic writer; a malformed store is still worded by zod', () => {
  const store = dir.path('trust.json');
  const env = { HOME: dir.path('nohome'), AGENT_HOOKS_TRUST_STORE: store };
  dir.json('.claude/settings.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo project-hook-ran >&2; exit 2' }] }] },
  });
  const trusted = spawnSync(process.execPath, [BIN, 'trust', '--cwd', dir.root], {
    cwd: dir.root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  expect(trusted.status, trusted.stderr).toBe(0);
  const r = resolvedByWith([BIN, 'dispatch', '--agent', 'claude'], CLAUDE_PRE_TOOL_USE(dir.root), env);
  expect(JSON.parse(r.stdout)).toMatchObject({
    hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'project-hook-ran' },
  });
  const sources = bundledSources(r.dist);
  expect(sources).toEqual(expect.arrayContaining(['dist/trust/gate.js', 'dist/trust/store.js']));
  // The store was accepted by its compiled validator (src/trust/store.ts): no zod. Reading it
  // takes no lock, and the script hash cache had nothing to write back.
  expect(r.dist).toContain('validators/trustStore.cjs');
  for (const s of ['node_modules/zod/', 'node_modules/proper-lockfile/', 'node_modules/write-file-atomic/', 'dist/trust/store-schema.js'])
    expect(
      sources.filter((f) => f.startsWith(s)),
      s,
    ).toEqual([]);
  expect(r.packages).not.toContain('zod');

  // A digest that is not one: the compiled validator rejects, zod decides and words it, and the
  // project hook does not run.
  const data = JSON.parse(readFileSync(store, 'utf8')) as { workspaces: Record<string, { hooks: { digest: string } }> };
  for (const w of Object.values(data.workspaces)) w.hooks.digest = 'sha256:not-hex';
  writeFileSync(store, JSON.stringify(data), { mode: 0o600 });
  const bad = resolvedByWith([BIN, 'dispatch', '--agent', 'claude'], CLAUDE_PRE_TOOL_USE(dir.root), env);
  expect(bad.stdout).not.toContain('project-hook-ran');
  expect(bad.stderr).toMatch(/trust store .* is malformed at workspaces\..*\.hooks\.digest: .*pattern/);
  expect(bundledSources(bad.dist)).toContain('dist/trust/store-schema.js');
});

test('agent-hooks dispatch runs from the bundles the build makes', () => {
  expect(existsSync(`${ROOT}dist/cli/bundle-check/dispatch.cjs`)).toBe(true);
  const settings = dir.json('settings.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo bundled-hook >&2; exit 2' }] }] },
  });
  const payload = JSON.stringify({
    session_id: 's',
    transcript_path: '',
    cwd: dir.root,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'ls' },
  });
  const r = resolvedByWith([BIN, 'dispatch', '--agent', 'claude', '--settings', settings], payload, {});
  // The hook ran: its exit 2 comes back as Claude's deny with its stderr as the reason.
  expect(JSON.parse(r.stdout)).toMatchObject({
    hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'bundled-hook' },
  });
  expect(r.code).toBe(0);
  // The CommonJS no-hooks check, then the lazy bundle's hook-running entry, all through require():
  // none of our files but the entry (which `--import` sends through the ES loader) went through
  // the ES loader (scripts/bundle-dispatch.mjs).
  expect(r.dist).toEqual(expect.arrayContaining(['cli/bin.cjs', 'cli/bundle-check/dispatch.cjs', 'cli/bundle/dispatch/run.js']));
  expect(r.esm.filter((f) => f !== 'cli/bin.cjs')).toEqual([]);
  expect(r.dist.filter((f) => f.startsWith('engine/') || f.startsWith('events/'))).toEqual([]);
  expect(r.packages).toEqual([]);
});

/** The sources inside the bundle files a process loaded (dist/cli/bundle-inputs.json, written by the build). */
function bundledSources(dist: string[]): string[] {
  const inputsOf = JSON.parse(readFileSync(`${ROOT}dist/cli/bundle-inputs.json`, 'utf8')) as Record<string, string[]>;
  const loaded = dist.filter((f) => f.startsWith('cli/bundle'));
  for (const f of loaded) expect(inputsOf[f], f).toBeDefined();
  return loaded.flatMap((f) => inputsOf[f]!);
}

const CLAUDE_PRE_TOOL_USE = (cwd: string) =>
  JSON.stringify({
    session_id: 's',
    transcript_path: '',
    cwd,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'ls' },
  });

test('bundled dispatch with nothing to run loads neither the engine nor zod nor the shell parser', () => {
  const r = resolvedByWith([BIN, 'dispatch', '--agent', 'claude'], CLAUDE_PRE_TOOL_USE(dir.root), { HOME: dir.path('nohome') });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe('');
  // One CommonJS file besides bin.cjs and its code cache loader: no ES bundle file, no plain module.
  expect(r.dist).toEqual(['cli/bin.cjs', 'cli/bundle-check/dispatch.cjs', 'cli/code-cache.cjs']);
  const sources = bundledSources(r.dist);
  expect(sources).toContain('dist/dispatch/dispatch.js');
  for (const s of [
    'node_modules/zod/',
    'node_modules/unbash/',
    'dist/engine/',
    'dist/config/',
    'dist/events/catalog.js',
    'dist/events/schemas.js',
    'dist/trust/',
  ])
    expect(
      sources.filter((f) => f.startsWith(s)),
      s,
    ).toEqual([]);
});

test('bundled dispatch with one user-level command hook loads no trust, HTTP, prompt, MCP SDK or TOML code', () => {
  dir.json('home/.claude/settings.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo one-hook >&2; exit 2' }] }] },
  });
  const r = resolvedByWith([BIN, 'dispatch', '--agent', 'claude'], CLAUDE_PRE_TOOL_USE(dir.root), {
    HOME: dir.path('home'),
    AGENT_HOOKS_TRUST_STORE: dir.path('trust.json'),
  });
  expect(JSON.parse(r.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'one-hook' } });
  const sources = bundledSources(r.dist);
  expect(sources).toContain('dist/engine/engine.js');
  // The compiled validators accept the settings, the input and the output (src/events/compiled.ts):
  // zod is not loaded at all (src/util/zod-slot.ts). Each is required on first use: no engine
  // options, no options' part of the settings validator; no JSON output, no output validator.
  expect(r.dist).toEqual(
    expect.arrayContaining(['validators/settings.cjs', 'validators/settings-core.cjs', 'validators/input_PreToolUse.cjs']),
  );
  expect(r.dist).not.toContain('validators/settings-agentHooks.cjs');
  // One bundle file: each chunk more is a file open and a cache read (docs/performance.md, "The last figure").
  expect(r.dist.filter((f) => f.startsWith('cli/bundle/'))).toEqual(['cli/bundle/dispatch/run.js']);
  expect(r.esm.filter((f) => f !== 'cli/bin.cjs')).toEqual([]);
  expect(sources.filter((f) => f.startsWith('node_modules/zod/'))).toEqual([]);
  expect(r.packages).not.toContain('zod');
  const off = [
    'dist/trust/',
    'dist/backends/http.js',
    'dist/backends/prompt.js',
    'dist/serve/',
    'dist/host/',
    'node_modules/undici/',
    'node_modules/@modelcontextprotocol/',
    'node_modules/smol-toml/',
    'node_modules/yaml/',
    'node_modules/proper-lockfile/',
    'node_modules/write-file-atomic/',
    'node_modules/hono/',
    'node_modules/commander/',
  ];
  for (const s of off)
    expect(
      sources.filter((f) => f.startsWith(s)),
      s,
    ).toEqual([]);
});

test('bundled dispatch loads zod only for what the compiled validators do not accept, and words it as before', () => {
  // A PreToolUse output with updatedInput of the wrong type: the compiled validator rejects it, zod words why.
  const out = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: 5 } });
  dir.json('home/.claude/settings.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo '${out}'` }] }] },
  });
  const env = { HOME: dir.path('home'), AGENT_HOOKS_TRUST_STORE: dir.path('trust.json') };
  const payload = CLAUDE_PRE_TOOL_USE(dir.root);
  const bundled = resolvedByWith([BIN, 'dispatch', '--agent', 'claude'], payload, env);
  const plain = resolvedByWith([`${ROOT}dist/cli/dispatch.js`, '--agent', 'claude'], payload, env);
  const sources = bundledSources(bundled.dist);
  // zod came in for the output, without its ~60 translations (scripts/bundle-dispatch.mjs).
  expect(sources).toContain('node_modules/zod/v4/locales/en.js');
  expect(sources.filter((f) => f.startsWith('node_modules/zod/v4/locales/') && !f.endsWith('/en.js'))).toEqual([]);
  expect(bundled.stderr).toContain('updatedInput');
  expect([bundled.stdout, bundled.stderr, bundled.code]).toEqual([plain.stdout, plain.stderr, plain.code]);
});

test('bundled and plain dispatch word a rejected config the same (zod English messages)', () => {
  const settings = dir.json('bad.json', {
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            { type: 'command', command: '', timeout: -1 },
            { type: 'http', url: 'ftp://x' },
          ],
        },
      ],
    },
  });
  const payload = CLAUDE_PRE_TOOL_USE(dir.root);
  const bundled = resolvedByWith([BIN, 'dispatch', '--agent', 'claude', '--settings', settings], payload, { HOME: dir.path('nohome') });
  const plain = resolvedByWith([`${ROOT}dist/cli/dispatch.js`, '--agent', 'claude', '--settings', settings], payload, {
    HOME: dir.path('nohome'),
  });
  expect(bundled.dist.some((f) => f.startsWith('cli/bundle/'))).toBe(true);
  expect(plain.packages).toContain('zod');
  expect(bundled.stderr).toContain('timeout');
  expect(bundled.stderr).toContain('must be > 0');
  expect([bundled.stdout, bundled.stderr, bundled.code]).toEqual([plain.stdout, plain.stderr, plain.code]);
});

test('engine options in settings: their validator loads only then, and zod only for a rejected value', () => {
  const hooks = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo opts-hook >&2; exit 2' }] }] };
  const payload = CLAUDE_PRE_TOOL_USE(dir.root);
  const env = { HOME: dir.path('nohome') };
  const good = dir.json('good.json', { hooks, agentHooks: { failureBehavior: 'deny', maxConcurrentHooks: 2 } });
  const accepted = resolvedByWith([BIN, 'dispatch', '--agent', 'claude', '--settings', good], payload, env);
  expect(JSON.parse(accepted.stdout)).toMatchObject({
    hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'opts-hook' },
  });
  expect(accepted.dist).toContain('validators/settings-agentHooks.cjs');
  expect(bundledSources(accepted.dist).filter((f) => f.startsWith('node_modules/zod/'))).toEqual([]);
  // A rejected option: zod decides and words it, as the plain modules do.
  const bad = dir.json('bad-options.json', { hooks, agentHooks: { maxConcurrentHooks: 0 } });
  const bundled = resolvedByWith([BIN, 'dispatch', '--agent', 'claude', '--settings', bad], payload, env);
  const plain = resolvedByWith([`${ROOT}dist/cli/dispatch.js`, '--agent', 'claude', '--settings', bad], payload, env);
  expect(bundledSources(bundled.dist)).toContain('node_modules/zod/v4/locales/en.js');
  expect(bundled.stderr).toContain('maxConcurrentHooks');
  expect([bundled.stdout, bundled.stderr, bundled.code]).toEqual([plain.stdout, plain.stderr, plain.code]);
});

test('agent-hooks run runs from its bundle without commander, and with the same light graph', () => {
  expect(existsSync(`${ROOT}dist/cli/bundle-run/run-entry.js`)).toBe(true);
  const settings = dir.json('settings.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] },
  });
  const r = resolvedByWith([BIN, 'run', 'PreToolUse', '--settings', settings], '', { HOME: dir.path('nohome') });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('success');
  expect(r.packages).toEqual([]);
  // Besides the bundle: bin.cjs, its code cache loader and the event's compiled validators
  // (src/events/compiled.ts), all required.
  expect(r.dist.filter((f) => !f.startsWith('cli/bundle-run/'))).toEqual([
    'cli/bin.cjs',
    'cli/code-cache.cjs',
    'validators/input_PreToolUse.cjs',
    'validators/settings-core.cjs',
    'validators/settings.cjs',
  ]);
  expect(r.esm.filter((f) => f !== 'cli/bin.cjs')).toEqual([]);
  const sources = bundledSources(r.dist);
  expect(sources).toContain('dist/cli/run.js');
  expect(sources.filter((f) => NOT_FOR_A_CLAUDE_FILE.test(f))).toEqual([]);
  for (const s of [
    'dist/cli/main.js',
    'node_modules/zod/',
    'node_modules/commander/',
    'dist/trust/',
    'dist/backends/http.js',
    'node_modules/undici/',
    'node_modules/@modelcontextprotocol/',
  ])
    expect(
      sources.filter((f) => f.startsWith(s)),
      s,
    ).toEqual([]);
});

test('the light copies of catalog and toolkit values match their sources', () => {
  expect(FIRST_EVENT_NAMES).toEqual(EVENT_NAMES.slice(0, 4));
  expect(LANG_CHOICES).toEqual(LANGS);
});

/** Bundled `dispatch --agent claude` of CLAUDE_PRE_TOOL_USE (`ls`, or `command`) with these user-level PreToolUse hooks. */
function bundledDispatch(hooks: unknown[] | undefined, command = 'ls') {
  if (hooks) dir.json('home/.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks }] } });
  const payload = JSON.parse(CLAUDE_PRE_TOOL_USE(dir.root)) as Record<string, unknown>;
  const r = resolvedByWith([BIN, 'dispatch', '--agent', 'claude'], JSON.stringify({ ...payload, tool_input: { command } }), {
    HOME: dir.path('home'),
    AGENT_HOOKS_TRUST_STORE: dir.path('trust.json'),
  });
  return { ...r, sources: bundledSources(r.dist) };
}
const SHELL_PARSER = 'node_modules/unbash/';
const GLOBS = 'node_modules/picomatch/';
const ofPackage = (sources: string[], prefix: string) => sources.filter((f) => f.startsWith(prefix));
/** The tables of every dialect but Claude's (the detectors and src/agents/shared/ are not tables). */
test('bundled dispatch with one plain command hook loads neither the shell parser nor picomatch', () => {
  const r = bundledDispatch([{ type: 'command', command: 'echo plain-hook >&2; exit 2' }]);
  expect(JSON.parse(r.stdout)).toMatchObject({
    hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'plain-hook' },
  });
  expect(r.sources).toContain('dist/engine/engine.js');
  expect(ofPackage(r.sources, SHELL_PARSER)).toEqual([]);
  expect(ofPackage(r.sources, GLOBS)).toEqual([]);
  expect(r.sources.filter((f) => f.startsWith('dist/matching/if-rule') || f.startsWith('dist/backends/shell-placeholders'))).toEqual([]);
  expect(r.sources.filter((f) => OTHER_DIALECTS.includes(f))).toEqual([]);
});

test('bundled dispatch with a Bash `if` rule loads the parser and matches as before', () => {
  const hooks = [{ type: 'command', command: 'echo if-hook >&2; exit 2', if: 'Bash(git push *)' }];
  const push = bundledDispatch(hooks, 'cd x && git push origin main');
  expect(JSON.parse(push.stdout)).toMatchObject({
    hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'if-hook' },
  });
  expect(ofPackage(push.sources, SHELL_PARSER)).not.toEqual([]);
  expect(push.sources).toContain('dist/matching/if-rule.js');
  const other = bundledDispatch(undefined, 'git status');
  expect([other.stdout, other.code]).toEqual(['', 0]);
  expect(other.stderr).not.toContain('if-hook');
  expect(other.stderr).not.toContain('not decided');
  // Edit rules need picomatch, not the shell parser; a Bash rule needs the parser (one chunk holds the rule module).
  const edit = bundledDispatch([{ type: 'command', command: 'true', if: 'Edit(src/**)' }]);
  expect(edit.code).toBe(0);
  expect(ofPackage(edit.sources, GLOBS)).not.toEqual([]);
});

test('bundled dispatch with a ${CLAUDE_PROJECT_DIR} placeholder loads the shell parser only', () => {
  const r = bundledDispatch([{ type: 'command', command: 'echo "${CLAUDE_PROJECT_DIR}" >&2; exit 2' }]);
  expect(JSON.parse(r.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: dir.root } });
  expect(ofPackage(r.sources, SHELL_PARSER)).not.toEqual([]);
  expect(ofPackage(r.sources, GLOBS)).toEqual([]);
});

test('bundled dispatch with nothing to run loads no dialect tables but Claude’s, and one wire adapter', () => {
  const r = bundledDispatch(undefined);
  expect([r.stdout, r.code]).toEqual(['', 0]);
  expect(r.sources).toContain('dist/agents/registry.js');
  expect(r.sources.filter((f) => OTHER_DIALECTS.includes(f) || f === 'dist/agents/all.js')).toEqual([]);
  expect(r.sources.filter((f) => /^dist\/agents\/(?!shared\/)[a-z]+\/wire\.js$/.test(f))).toEqual(['dist/agents/claude/wire.js']);
  // No agent's reader (zod) either: nothing was read but Claude's settings, by the native loader.
  expect(r.sources.filter((f) => /^dist\/agents\/[a-z]+\/reader\.js$/.test(f))).toEqual([]);
  // A Codex file in the project (a forced --dialect here) loads Codex's tables, and no others.
  const codex = dir.json('codex-hooks.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } });
  const forced = resolvedByWith(
    [BIN, 'dispatch', '--agent', 'claude', '--settings', codex, '--dialect', 'codex'],
    CLAUDE_PRE_TOOL_USE(dir.root),
    {
      HOME: dir.path('nohome'),
    },
  );
  expect([forced.stdout, forced.code]).toEqual(['', 0]);
  const sources = bundledSources(forced.dist);
  expect(sources.filter((f) => OTHER_DIALECTS.includes(f))).toEqual(['dist/agents/codex/facts.js']);
});

test('dispatch and run with one command hook load neither node:crypto nor perf_hooks', () => {
  dir.json('home/.claude/settings.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo one-hook >&2; exit 2' }] }] },
  });
  const env = { HOME: dir.path('home'), AGENT_HOOKS_TRUST_STORE: dir.path('trust.json') };
  const d = resolvedByWith([BIN, 'dispatch', '--agent', 'claude'], CLAUDE_PRE_TOOL_USE(dir.root), env);
  // The hook ran (ids were made for its payload and the records) and the recorder saw the spawn.
  expect(JSON.parse(d.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  expect(d.builtins).toContain('child_process');
  const r = resolvedByWith(
    [BIN, 'run', 'PreToolUse', '--settings', dir.path('home/.claude/settings.json'), '--tool', 'Bash', '--input', '{"command":"ls"}'],
    '',
    env,
  );
  expect(r.stdout).toContain('one-hook');
  for (const { builtins } of [d, r]) {
    expect(builtins.filter((b) => b === 'crypto' || b.startsWith('internal/crypto/'))).toEqual([]);
    // `performance` itself (src/util/clock.ts); net's observer modules are Node's own and stay.
    expect(builtins.filter((b) => b === 'perf_hooks' || b === 'internal/perf/performance')).toEqual([]);
  }
});

test('every CommonJS file dispatch and run load runs in strict mode, as its ES sources do, and copies no exports', () => {
  const files = ['dist/cli/bundle-check', 'dist/cli/bundle', 'dist/cli/bundle-run', 'dist/validators'].flatMap((d) =>
    readdirSync(`${ROOT}${d}`, { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.c?js$/.test(f))
      .map((f) => `${d}/${f}`),
  );
  expect(files).toContain('dist/cli/bundle/dispatch/run.js');
  // A directive counts only as the first statement: a banner or loader above it would undo it.
  const sloppy = files.filter((f) => !readFileSync(`${ROOT}${f}`, 'utf8').startsWith('"use strict";'));
  expect(sloppy).toEqual([]);
  // esbuild's getter copy of a file's exports, or of a Node module's, was one more young collection
  // per dispatch (docs/performance.md, item 21); a validator's two exports are left as they are.
  const copying = files.filter(
    (f) => f.startsWith('dist/cli/') && /\b__toCommonJS\(\w|\b__toESM\(require\("node:/.test(readFileSync(`${ROOT}${f}`, 'utf8')),
  );
  expect(copying).toEqual([]);
});

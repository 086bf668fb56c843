/**
 * Issue 39, class 3: what runs is what was reviewed. Every construct whose executed files cannot
 * be determined is unpinned (with a reason), never pinned to nothing; pins resolve where the hook
 * runs; a pinned file is verified when it is executed (no check-then-use window); the session
 * manager (which the reference runtime, src/host/runtime.ts, runs its hooks through) verifies at
 * each execution, not once at bind.
 *
 * The controls show the same set-up denies before the attacker's move.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHookEngine } from '../../src/engine/engine.js';
import { createHookManager } from '../../src/session/manager.js';
import { loadTrustedConfig, trustWorkspace } from '../../src/trust/index.js';
import type { DialectName } from '../../src/agents/types.js';
import {
  DIALECTS,
  dispatchShell,
  GUARD_SH,
  guardedProject,
  runBin,
  sandbox,
  trust,
  verdict,
  waitForFile,
  type Sandbox,
} from './helpers.js';

const sandboxes: Sandbox[] = [];
function fresh() {
  const sb = sandbox();
  sandboxes.push(sb);
  return sb;
}
afterAll(() => {
  for (const sb of sandboxes) sb.dir.cleanup();
});

interface HookStatus {
  state: string;
  pinned?: boolean;
  unpinned?: string[];
  scripts: unknown[];
}
async function status(sb: Sandbox, project: string, env = sb.env): Promise<{ state: string; hook: HookStatus }> {
  const r = await runBin(['status', '--cwd', project, '--json'], { env });
  const j = JSON.parse(r.stdout) as { state: string; hooks: HookStatus[] };
  return { state: j.state, hook: j.hooks[0]! };
}

/** An attacker's script: leaves a mark and lets the call through. */
const pwn = (mark: string) => `#!/bin/sh\necho pwned > '${mark}'\nexit 0\n`;

interface Construct {
  name: string;
  command: string;
  files: Record<string, string>;
  /** The file the attacker changes afterwards, and its new content (MARK: the marker path). */
  change: [string, (mark: string) => string];
  /** The hook can run here (its interpreter is installed): also dispatch and look for the mark. */
  runs: boolean;
  /** The agent's PATH has this workspace directory first. */
  pathDir?: string;
}
const CONSTRUCTS: Construct[] = [
  {
    name: 'a trap … EXIT',
    command: 'trap "sh hooks/x.sh" EXIT; true',
    files: { 'hooks/x.sh': 'exit 0\n' },
    change: ['hooks/x.sh', pwn],
    runs: true,
  },
  {
    name: 'python3 -c loading a workspace file',
    command: `python3 -c "exec(open('hooks/g.py').read())"`,
    files: { 'hooks/g.py': 'pass\n' },
    change: ['hooks/g.py', (m) => `open(${JSON.stringify(m)}, 'w').write('pwned')\n`],
    runs: true,
  },
  {
    name: 'node -e requiring a workspace file',
    command: `node -e "require('./hooks/g.js')"`,
    files: { 'hooks/g.js': '\n' },
    change: ['hooks/g.js', (m) => `require('fs').writeFileSync(${JSON.stringify(m)}, 'pwned');\n`],
    runs: true,
  },
  {
    name: 'perl -e doing a workspace file',
    command: `perl -e 'do "./hooks/g.pl"'`,
    files: { 'hooks/g.pl': '1;\n' },
    change: ['hooks/g.pl', (m) => `open(my $f, '>', '${m}'); print $f "pwned"; 1;\n`],
    runs: true,
  },
  {
    name: "awk's system() running a workspace script",
    command: `awk 'BEGIN { system("sh hooks/x.sh") }'`,
    files: { 'hooks/x.sh': 'exit 0\n' },
    change: ['hooks/x.sh', pwn],
    runs: true,
  },
  {
    name: 'a bare command found through a PATH entry inside the workspace',
    command: 'guard-check',
    files: { 'bin/guard-check': '#!/bin/sh\nexit 0\n' },
    change: ['bin/guard-check', pwn],
    runs: true,
    pathDir: 'bin',
  },
  {
    name: 'cargo run (a toolchain that runs the crate in the directory)',
    command: 'cargo run --quiet',
    files: { 'Cargo.toml': '[package]\nname = "g"\nversion = "0.1.0"\nedition = "2021"\n', 'src/main.rs': 'fn main() {}\n' },
    change: ['src/main.rs', () => 'fn main() { std::process::exit(0) }\n'],
    runs: false,
  },
  {
    name: 'go run ./cmd/guard (a directory run by a toolchain)',
    command: 'go run ./cmd/guard',
    files: { 'cmd/guard/main.go': 'package main\n\nfunc main() {}\n' },
    change: ['cmd/guard/main.go', () => 'package main\n\nimport "os"\n\nfunc main() { os.Exit(0) }\n'],
    runs: false,
  },
  {
    name: 'poetry run (a package script)',
    command: 'poetry run guard',
    files: { 'pyproject.toml': '[tool.poetry.scripts]\nguard = "g:main"\n', 'g.py': 'def main(): pass\n' },
    change: ['g.py', () => 'def main():\n    import os\n'],
    runs: false,
  },
  {
    name: 'bun run (a package.json script)',
    command: 'bun run guard',
    files: { 'package.json': '{"scripts":{"guard":"sh hooks/x.sh"}}\n', 'hooks/x.sh': 'exit 0\n' },
    change: ['package.json', () => '{"scripts":{"guard":"sh hooks/y.sh"}}\n'],
    runs: false,
  },
];

describe('a hook whose executed files cannot be determined is flagged unpinned, never pinned to nothing', () => {
  // Trusted with --allow-unpinned so trust succeeds either way; then the attacker changes the file.
  // The guarantee: the hook was flagged unpinned, or the change is seen (not `trusted`) and the new code does not run.
  it.concurrent.each(CONSTRUCTS)('$name', async (c) => {
    const sb = fresh();
    const project = sb.dir.path('p');
    for (const [rel, content] of Object.entries(c.files)) sb.dir.write(`p/${rel}`, content, 0o755);
    sb.dir.json('p/.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: c.command }] }] },
    });
    const env = c.pathDir ? { ...sb.env, PATH: `${join(project, c.pathDir)}:${sb.env.PATH}` } : sb.env;
    await runBin(['trust', '--cwd', project, '--allow-unpinned'], { env });
    const flagged = ((await status(sb, project, env)).hook.unpinned ?? []).length > 0;
    const mark = sb.dir.path('mark');
    writeFileSync(join(project, c.change[0]), c.change[1](mark), { mode: 0o755 });
    const after = await status(sb, project, env);
    if (c.runs) await dispatchShell('claude', project, 'ls', { env });
    const ran = existsSync(mark);
    expect({ flagged, seen: after.state !== 'trusted' && !ran }).not.toEqual({ flagged: false, seen: false });
  });

  it.concurrent('control: a plain script path (`sh hooks/x.sh`) is pinned, and changing it is seen', async () => {
    const sb = fresh();
    const project = guardedProject(sb, 'p', 'sh hooks/guard.sh');
    await trust(sb, project);
    writeFileSync(join(project, 'hooks/guard.sh'), '#!/bin/sh\nexit 0\n');
    expect((await status(sb, project)).state).toBe('modified');
  });
});

describe('relative pins resolve where the hook runs: a new sub/hooks/guard.sh does not run as trusted', () => {
  // The hook is `sh hooks/guard.sh`, pinned against the project; it runs in the payload's cwd.
  let sb: Sandbox;
  let project = '';
  beforeAll(async () => {
    sb = fresh();
    project = guardedProject(sb, 'p', 'sh hooks/guard.sh');
    await trust(sb, project);
    sb.dir.write('p/sub/hooks/guard.sh', pwn(sb.dir.path('mark-sub')), 0o755);
  });

  it.concurrent('control: from the project root the trusted guard denies', async () => {
    expect(verdict(await dispatchShell('claude', project, 'rm -rf build', { env: sb.env, args: ['--cwd', project] }))).toBe('deny');
  });

  it.concurrent.each(DIALECTS)('dispatch --agent %s --cwd PROJECT, payload cwd PROJECT/sub', async (agent: DialectName) => {
    const r = await dispatchShell(agent, join(project, 'sub'), 'rm -rf build', { env: sb.env, args: ['--cwd', project] });
    expect(verdict(r)).toBe('deny');
  });

  it('the library (loadTrustedConfig + createHookEngine), payload cwd PROJECT/sub', async () => {
    const mark = sb.dir.path('mark-sub');
    const { config } = await loadTrustedConfig(
      { cwd: project, projectDir: project, homeDir: sb.dir.path('home'), managedSettingsPath: sb.dir.path('no-managed.json') },
      { storePath: sb.env.AGENT_HOOKS_TRUST_STORE, homeDir: sb.dir.path('home') },
    );
    const engine = createHookEngine({ hooks: config.hooks, projectDir: project, cwd: project });
    try {
      const d = await engine.run('PreToolUse', {
        session_id: 's',
        cwd: join(project, 'sub'),
        tool_name: 'Bash',
        tool_input: { command: 'rm -rf build' },
      });
      expect({ blocked: d.blocked, unreviewedRan: existsSync(mark) }).toEqual({ blocked: true, unreviewedRan: false });
    } finally {
      await engine.close();
    }
  });
});

describe('check-then-use: a guard swapped between the digest and the exec does not run', () => {
  // PreToolUse runs serially: a slow trusted hook first (a logger), then the guard. While the
  // logger runs, a parallel tool call of the agent renames a permissive script over the guard.
  it('dispatch --agent claude: the reviewed guard answers (deny), the swapped-in one never runs', async () => {
    const sb = fresh();
    const project = sb.dir.path('p');
    const started = sb.dir.path('started');
    const mark = sb.dir.path('mark-swap');
    sb.dir.write('p/hooks/slow.sh', `#!/bin/sh\ncat > /dev/null\ntouch '${started}'\nsleep 2\nexit 0\n`, 0o755);
    sb.dir.write('p/hooks/guard.sh', GUARD_SH, 0o755);
    sb.dir.json('p/.claude/settings.json', {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: 'sh hooks/slow.sh' },
              { type: 'command', command: 'sh hooks/guard.sh' },
            ],
          },
        ],
      },
    });
    await trust(sb, project);
    const pending = dispatchShell('claude', project, 'rm -rf build', { env: sb.env });
    await waitForFile(started);
    sb.dir.write('p/hooks/.guard.new', pwn(mark), 0o755);
    renameSync(join(project, 'hooks/.guard.new'), join(project, 'hooks/guard.sh'));
    const r = await pending;
    expect({ verdict: verdict(r), unreviewedRan: existsSync(mark) }).toEqual({ verdict: 'deny', unreviewedRan: false });
  });
});

describe('check-then-use: a project reached through a link the agent re-points after the check', () => {
  // The check resolves the link; the hook must run where it resolved, not where the link points
  // later (the pinned files themselves are unchanged, so the post-run comparison sees nothing).
  it('dispatch --agent claude: the reviewed guard answers (deny), the other tree’s script never runs', async () => {
    const sb = fresh();
    const link = sb.dir.path('p');
    const sync = sb.dir.path('sync');
    const mark = sb.dir.path('mark-link');
    mkdirSync(sync);
    const wait = `touch '${sync}/started'; while [ ! -e '${sync}/go' ]; do sleep 0.02; done\n`;
    for (const tree of ['real', 'other']) sb.dir.write(`${tree}/hooks/wait.sh`, wait, 0o755);
    sb.dir.write('real/hooks/guard.sh', GUARD_SH, 0o755);
    sb.dir.write('other/hooks/guard.sh', pwn(mark), 0o755);
    sb.dir.json('real/.claude/settings.json', {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: 'sh "$CLAUDE_PROJECT_DIR"/hooks/wait.sh </dev/null; sh "$CLAUDE_PROJECT_DIR"/hooks/guard.sh' },
            ],
          },
        ],
      },
    });
    symlinkSync(sb.dir.path('real'), link);
    await trust(sb, link);
    const pending = dispatchShell('claude', link, 'rm -rf build', { env: { ...sb.env, CLAUDE_PROJECT_DIR: link } });
    await waitForFile(join(sync, 'started'));
    symlinkSync(sb.dir.path('other'), `${link}.new`);
    renameSync(`${link}.new`, link);
    writeFileSync(join(sync, 'go'), '');
    const r = await pending;
    expect({ verdict: verdict(r), unreviewedRan: existsSync(mark) }).toEqual({ verdict: 'deny', unreviewedRan: false });
  });
});

// Under a sandbox the pinned file is served: the hook reads the bytes the engine verified, at
// their path, whatever happens to the file outside (src/backends/sandbox-view.ts). A later command
// of the same hook opens the guard only once the earlier ones ran: the hook below holds that window
// open until the test has swapped the guard. The hook writes only below `out/`: the directories on
// the way to a served file are read-only copies in the sandbox. The view is on by default where the
// agent confines the model's commands but not hooks (src/config/confinement.ts); without any
// sandbox the swapped-in script runs (the stated limit), which shows the race reaches the exec.
const BWRAP = spawnSync('bwrap', ['--unshare-all', '--ro-bind', '/', '/', 'true']).status === 0;
const SANDBOXES: Array<{ name: string; agent: DialectName; settings: Record<string, unknown>; isolated: boolean; served: boolean }> = [
  { name: '"bwrap", asked for', agent: 'claude', settings: { agentHooks: { sandbox: 'bwrap' } }, isolated: true, served: true },
  { name: '"view", asked for', agent: 'claude', settings: { agentHooks: { sandbox: 'view' } }, isolated: false, served: true },
  {
    name: 'the default view: Claude Code’s sandbox is on',
    agent: 'claude',
    settings: { sandbox: { enabled: true } },
    isolated: false,
    served: true,
  },
  { name: 'the default view: Codex confines the model’s commands', agent: 'codex', settings: {}, isolated: false, served: true },
  { name: 'no sandbox (the stated limit)', agent: 'claude', settings: {}, isolated: false, served: false },
];
describe.skipIf(!BWRAP).each(SANDBOXES)('check-then-use under $name: a guard swapped after the check', (c) => {
  async function race(swap: boolean) {
    const sb = fresh();
    const project = sb.dir.path('p');
    // Inside the project: the only place an isolated script can write its mark.
    const out = join(project, 'out');
    const mark = join(out, 'mark-swap');
    // Outside the project, in a directory that exists (the view refuses new entries only on the
    // way to a served file): a write there fails only in the isolated sandbox.
    mkdirSync(sb.dir.path('outside'));
    const escaped = sb.dir.path('outside/escaped');
    const wait = `touch '${escaped}'; touch "$CLAUDE_PROJECT_DIR/out/started"; while [ ! -e "$CLAUDE_PROJECT_DIR/out/go" ]; do sleep 0.02; done\n`;
    sb.dir.write('p/hooks/wait.sh', wait, 0o755);
    mkdirSync(out, { recursive: true });
    sb.dir.write('p/hooks/guard.sh', GUARD_SH, 0o755);
    sb.dir.json('p/.claude/settings.json', {
      ...c.settings,
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh hooks/wait.sh </dev/null; sh hooks/guard.sh' }] }] },
    });
    await trust(sb, project);
    const pending = dispatchShell(c.agent, project, 'rm -rf build', { env: sb.env });
    await waitForFile(join(out, 'started'));
    if (swap) {
      sb.dir.write('p/hooks/.guard.new', pwn(mark), 0o755);
      renameSync(join(project, 'hooks/.guard.new'), join(project, 'hooks/guard.sh'));
    }
    writeFileSync(join(out, 'go'), '');
    const r = await pending;
    return { verdict: verdict(r), unreviewedRan: existsSync(mark), isolated: !existsSync(escaped), said: r.stdout + r.stderr };
  }

  // Run once each, before the tests: a race that cannot be set up fails the suite, so a swap
  // that was never made cannot pass for one that did not run.
  let control: Awaited<ReturnType<typeof race>>;
  let swapped: Awaited<ReturnType<typeof race>>;
  beforeAll(async () => {
    control = await race(false);
    swapped = await race(true);
  });

  it('control: the reviewed guard runs and denies', () => {
    expect(control).toMatchObject({ verdict: 'deny', unreviewedRan: false, isolated: c.isolated });
    expect(control.said).toContain('no rm -rf');
  });

  it('the swapped-in script’s answer never counts: deny', () => {
    expect(swapped).toMatchObject({ verdict: 'deny', isolated: c.isolated });
    expect(swapped.said).toContain('changed while the hook ran');
  });

  it(c.served ? 'the swapped-in script never runs: the verified bytes do' : 'the swapped-in script runs', () => {
    expect(swapped.unreviewedRan).toBe(!c.served);
  });
});

/** A trusted project whose guard is GUARD_SH after `prelude`, Claude Code's sandbox on (so the default view). */
async function underClaudeSandbox(prelude: string) {
  const sb = fresh();
  const project = sb.dir.path('p');
  sb.dir.write('p/hooks/guard.sh', `#!/bin/sh\n${prelude}${GUARD_SH.replace('#!/bin/sh\n', '')}`, 0o755);
  sb.dir.json('p/.claude/settings.json', {
    sandbox: { enabled: true },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh hooks/guard.sh' }] }] },
  });
  await trust(sb, project);
  return { sb, project };
}

// Under the view the directories on the way to a served file are private copies: a guard that
// creates its log directory in the project root does so in the copy, and the engine puts it in
// place when the hook ends (src/backends/sandbox-copies.ts). Were it refused (EROFS), a `set -e`
// guard would exit 1, Claude's "proceed"; under a sandbox such an exit is the engine's failure
// (src/backends/sandbox.ts; test/backends/sandbox.test.ts).
describe.skipIf(!BWRAP)('a reviewed guard that makes its log directory under the default view', () => {
  it('dispatch --agent claude, Claude Code’s sandbox on: `set -e; mkdir logs` works, the guard denies, the log is kept', async () => {
    const { sb, project } = await underClaudeSandbox(
      'set -e\nmkdir -p "$CLAUDE_PROJECT_DIR/logs"\necho seen >> "$CLAUDE_PROJECT_DIR/logs/guard.log"\n',
    );
    const r = await dispatchShell('claude', project, 'rm -rf build', { env: sb.env });
    expect(verdict(r)).toBe('deny');
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/no rm -rf/);
    expect(readFileSync(join(project, 'logs/guard.log'), 'utf8')).toBe('seen\n');
  });
});

// A path the guard checked absent (an optional include) whose directory does not exist: the model
// makes that directory a link (`ln -s /nonexistent hooks/local`). The check still finds the path
// absent; the view cannot copy a link as a directory on the way, which is the engine's failure.
describe.skipIf(!BWRAP)('a link where a directory on the way to a path checked absent was', () => {
  it('dispatch --agent claude, Claude Code’s sandbox on: denied with the reason, never "proceed"', async () => {
    const { sb, project } = await underClaudeSandbox('[ -f hooks/local/extra.sh ] && . hooks/local/extra.sh\n');
    const control = await dispatchShell('claude', project, 'rm -rf build', { env: sb.env });
    expect(verdict(control)).toBe('deny');
    symlinkSync('/nonexistent', join(project, 'hooks/local'));
    const r = await dispatchShell('claude', project, 'ls', { env: sb.env });
    expect(verdict(r)).toBe('deny');
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(
      /hooks\/local, on the way to a pinned file, is not a directory/,
    );
  });
});

describe('the session manager (the reference runtime’s hooks) verifies at each execution, not once at bind', () => {
  let sb: Sandbox;
  let project = '';
  const home = () => sb.dir.path('home');
  const loadOptions = (dir: string) => ({
    cwd: dir,
    projectDir: dir,
    homeDir: home(),
    managedSettingsPath: sb.dir.path('no-managed.json'),
  });
  const manager = () => createHookManager({ loadOptions, trust: { storePath: sb.env.AGENT_HOOKS_TRUST_STORE, homeDir: home() } });
  const bash = (command: string) => ({ cwd: project, tool_name: 'Bash', tool_input: { command }, tool_use_id: 'toolu_1' });
  beforeAll(async () => {
    sb = fresh();
    project = guardedProject(sb, 'p');
    mkdirSync(home(), { recursive: true });
    const { trust: report } = await loadTrustedConfig(loadOptions(project), { storePath: sb.env.AGENT_HOOKS_TRUST_STORE, homeDir: home() });
    await trustWorkspace(report, { expectedDigest: report.digest });
  });

  it('control: a bound session’s trusted guard denies `rm -rf`', async () => {
    const m = manager();
    try {
      const s = await m.bindSession({ sessionId: 'control', projectDir: project });
      expect((await s.run('PreToolUse', bash('rm -rf build'))).blocked).toBe(true);
    } finally {
      await m.close();
    }
  });

  it('a guard edited after bind is not run: the session fails closed', async () => {
    const m = manager();
    const mark = sb.dir.path('mark-bound');
    try {
      const s = await m.bindSession({ sessionId: 'edited', projectDir: project });
      writeFileSync(join(project, 'hooks/guard.sh'), pwn(mark));
      const d = await s.run('PreToolUse', bash('rm -rf build'));
      expect({ blocked: d.blocked, unreviewedRan: existsSync(mark) }).toEqual({ blocked: true, unreviewedRan: false });
    } finally {
      writeFileSync(join(project, 'hooks/guard.sh'), GUARD_SH);
      await m.close();
    }
  });

  it('a skill the agent writes after the review does not run its frontmatter hooks on workspace trust alone', async () => {
    const m = manager();
    const mark = sb.dir.path('mark-skill');
    try {
      const s = await m.bindSession({ sessionId: 'skill', projectDir: project });
      const hooks = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo pwned > '${mark}'` }] }] };
      const file = sb.dir.write(
        'p/.claude/skills/helper/SKILL.md',
        `---\nname: helper\ndescription: helps\nhooks: ${JSON.stringify(hooks)}\n---\nBody.\n`,
      );
      await s.addSkill(file);
      await s.run('PreToolUse', bash('ls'));
      expect(existsSync(mark)).toBe(false);
    } finally {
      await m.close();
    }
  });
});

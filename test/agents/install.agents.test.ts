/**
 * `agent-hooks install` proven in the real agents (issue 40): `install --agent D --scope project
 * --settings guard.json`, then D runs offline against the fake model, which asks for `rm -rf
 * victim`; the guard (a Claude-format PreToolUse hook on Bash, exit 2) must be asked and the
 * directory must survive. For the plugin agents (OpenCode, Kilo, Pi) that proves the agent loads
 * the module install wrote. Then `uninstall` must leave the workspace's config as it was, byte
 * for byte: in a fresh workspace (no file), and in one that already has the user's own config
 * (harness/user-configs.ts). Kilo runs take 60-110 s: its second case does not start the agent
 * (install touches none of the user's files there; the first case proves the plugin loads). Run alone:
 *   npx vitest run -c vitest.agents.config.ts test/agents/install.agents.test.ts
 */
import { appendFileSync, chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { installSpecOf } from '../../src/install/targets/index.js';
import { CLI_BIN, runCli } from '../helpers/cli.js';
import type { AgentAdapter } from './harness/agent.js';
import { auggie } from './harness/auggie.js';
import { ensureAgent } from './harness/cache.js';
import { claude } from './harness/claude.js';
import { cline } from './harness/cline.js';
import { codex } from './harness/codex.js';
import { copilot } from './harness/copilot.js';
import { droid } from './harness/droid.js';
import { gemini } from './harness/gemini.js';
import { kilo } from './harness/kilo.js';
import { letta } from './harness/letta.js';
import { opencode } from './harness/opencode.js';
import { pi } from './harness/pi.js';
import { qwen } from './harness/qwen.js';
import { brokenInstall, makeRunDirs, namespaceUnavailable, type RunDirs, runInNamespace } from './harness/run.js';
import { SCENARIOS } from './harness/scenarios.js';
import { USER_CONFIGS } from './harness/user-configs.js';

const ADAPTERS: AgentAdapter[] = [claude, codex, gemini, qwen, copilot, droid, opencode, kilo, pi, cline, auggie, letta];
const unavailable = namespaceUnavailable();
const baseline = SCENARIOS.find((s) => s.id === 'baseline')!;
const GUARD_REASON = 'GUARD: no rm -rf here';
// Cline's only block is `cancel`, which ends the task: the model is not asked again, so it never sees the reason.
const REASON_NOT_SENT = new Set(['cline']);

/** Every file under `dir` (relative path → bytes); empty when there is no such folder. */
function filesUnder(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (e.isFile()) out.set(join(e.parentPath, e.name).slice(dir.length + 1), readFileSync(join(e.parentPath, e.name), 'latin1'));
  return out;
}

/** The folder holding what install writes: its target file's folder, or Cline's hooks folder itself. */
async function installDir(name: string, dirs: RunDirs): Promise<{ dir: string; target: string; format: string }> {
  const spec = (await installSpecOf(name))!;
  const target = spec.target('project', { projectDir: dirs.work, homeDir: dirs.home, env: {} }) as string;
  return { dir: spec.format === 'hooks-dir' ? target : dirname(target), target, format: spec.format };
}

interface Options {
  userFiles?: Record<string, string>;
  /** false: install and uninstall only. */
  run?: boolean;
  /** Install from a copy of the package whose plugin module is then deleted (a package moved or removed). */
  pluginGone?: boolean;
}

/**
 * Sets the agent up as for a run without hooks (model, permissive mode), puts the user's files
 * in, installs the guard, and runs the agent unless `run` is false. Returns what a case checks.
 */
async function installAndRun(adapter: AgentAdapter, dirs: RunDirs, { userFiles = {}, run = true, pluginGone = false }: Options) {
  const name = adapter.name;
  const bin = ensureAgent(name);
  mkdirSync(join(dirs.work, 'victim'));
  writeFileSync(join(dirs.work, 'victim', 'keep'), 'x');
  const ran = join(dirs.root, 'guard-ran');
  const guard = join(dirs.root, 'guard.json');
  const command = `touch '${ran}'; echo '${GUARD_REASON}' >&2; exit 2`;
  writeFileSync(guard, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } }));
  const prepared = adapter.prepare(dirs, { ...baseline, hooks: [], permissive: true }, 'native', bin);
  prepared.script = { toolCalls: [adapter.tools.shell('rm -rf victim')] };
  const where = await installDir(name, dirs);
  // The harness's own hook-less config or plugin sits where install writes (Letta's settings, the plugin file): not the user's.
  rmSync(where.target, { force: true });
  for (const [file, text] of Object.entries(userFiles)) {
    mkdirSync(dirname(join(dirs.work, file)), { recursive: true });
    writeFileSync(join(dirs.work, file), text);
    if (file.endsWith('.sh')) chmodSync(join(dirs.work, file), 0o755);
  }
  const before = filesUnder(where.dir);
  const entry = pluginGone ? brokenInstall(dirs.root) : CLI_BIN;
  const cli = (...args: string[]) => runCli(args, { cwd: dirs.work, env: prepared.env, entry });
  const installed = cli('install', '--agent', name, '--scope', 'project', '--settings', guard);
  expect([installed.code, installed.stderr]).toEqual([0, '']);
  if (pluginGone) rmSync(join(dirname(dirname(entry)), 'plugins', `${name === 'pi' ? 'pi' : 'opencode'}.js`));
  // Codex reads a project's .codex/ only in a trusted project: the user's step, done here as a user would.
  if (name === 'codex')
    appendFileSync(join(dirs.home, '.codex', 'config.toml'), `\n[projects.${JSON.stringify(dirs.work)}]\ntrust_level = "trusted"\n`);
  const written = filesUnder(where.dir);
  if (run) {
    const outcome = await runInNamespace(dirs, prepared);
    const log = `exit ${outcome.code}; ${outcome.requests.length} model requests\nstdout: ${outcome.stdout.slice(-1500)}\nstderr: ${outcome.stderr.slice(-1500)}`;
    expect(outcome.requests.length, log).toBeGreaterThan(0);
    expect(existsSync(ran), `the guard was ${pluginGone ? '' : 'never '}asked\n${log}`).toBe(!pluginGone);
    expect(existsSync(join(dirs.work, 'victim', 'keep')), `rm -rf ran\n${log}`).toBe(true);
    const reason = pluginGone ? 'agent-hooks cannot load' : GUARD_REASON;
    if (!REASON_NOT_SENT.has(name)) expect(JSON.stringify(outcome.requests.slice(1).map((r) => r.body)), log).toContain(reason);
  }
  // Files the agent made there itself (Letta's .lettaignore, settings.local.json) are its own, not install's.
  const afterRun = filesUnder(where.dir);
  const agentChanged = [...written].some(([f, t]) => afterRun.get(f) !== t);
  const removed = cli('uninstall', '--agent', name, '--scope', 'project');
  expect([removed.code, removed.stderr]).toEqual([0, '']);
  const final = filesUnder(where.dir);
  // What install or the user had there, as uninstall left it: must be exactly what was there before install.
  const after = new Map([...new Set([...before.keys(), ...written.keys()])].flatMap((f) => (final.has(f) ? [[f, final.get(f)!]] : [])));
  return { before, after, agentChanged, where };
}

describe.each(ADAPTERS.map((a) => [a.name, a] as const))('install --agent %s in the real agent', (name, adapter) => {
  test('the installed guard denies rm -rf in a fresh workspace, and uninstall takes the file out again', async (ctx) => {
    if (unavailable) ctx.skip(`not runnable here: ${unavailable}`);
    const dirs = makeRunDirs(`install-${name}`);
    try {
      const { before, after, agentChanged, where } = await installAndRun(adapter, dirs, {});
      expect(before.size).toBe(0);
      // An agent that rewrote the file meanwhile (Qwen Code adds "$version") keeps its change; only our lines go.
      if (agentChanged && name === 'qwen') expect(readFileSync(where.target, 'utf8')).not.toContain('AGENT_HOOKS_CLI=');
      else expect([agentChanged, [...after.keys()]]).toEqual([false, []]);
    } finally {
      rmSync(dirs.root, { recursive: true, force: true });
    }
  });

  test("with the user's own config there: denied too, and uninstall restores every byte", async (ctx) => {
    if (unavailable) ctx.skip(`not runnable here: ${unavailable}`);
    const dirs = makeRunDirs(`install-user-${name}`);
    try {
      const files = USER_CONFIGS[name];
      const { before, after, agentChanged } = await installAndRun(adapter, dirs, { userFiles: files, run: name !== 'kilo' });
      expect(before.size).toBeGreaterThan(0);
      expect(agentChanged).toBe(false);
      expect(after).toEqual(before);
      for (const [file, text] of Object.entries(files)) expect(readFileSync(join(dirs.work, file), 'latin1')).toBe(text);
    } finally {
      rmSync(dirs.root, { recursive: true, force: true });
    }
  });
});

// Kilo loads the same module as OpenCode (told it runs in Kilo): one slow run spared.
describe.each([opencode, pi].map((a) => [a.name, a] as const))('install --agent %s, then agent-hooks is gone', (name, adapter) => {
  test('the installed module blocks the call with the reason instead of letting it through', async (ctx) => {
    if (unavailable) ctx.skip(`not runnable here: ${unavailable}`);
    const dirs = makeRunDirs(`install-gone-${name}`);
    try {
      await installAndRun(adapter, dirs, { pluginGone: true });
    } finally {
      rmSync(dirs.root, { recursive: true, force: true });
    }
  });
});

/**
 * `agent-hooks install` proven in the real agents (issue 40): in a fresh workspace,
 * `install --agent D --scope project --settings guard.json`, then D runs offline against the fake
 * model, which asks for `rm -rf victim`; the guard (a Claude-format PreToolUse hook on Bash,
 * exit 2) must be asked and the directory must survive. Then `uninstall` must leave the
 * workspace's config as it was (here: no file). Run alone:
 *   npx vitest run -c vitest.agents.config.ts test/agents/install.agents.test.ts
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { installSpecOf } from '../../src/install/targets/index.js';
import { CLI_BIN, runCli } from '../helpers/cli.js';
import type { AgentAdapter } from './harness/agent.js';
import { ensureAgent } from './harness/cache.js';
import { claude } from './harness/claude.js';
import { codex } from './harness/codex.js';
import { copilot } from './harness/copilot.js';
import { droid } from './harness/droid.js';
import { gemini } from './harness/gemini.js';
import { qwen } from './harness/qwen.js';
import { makeRunDirs, namespaceUnavailable, runInNamespace } from './harness/run.js';
import { SCENARIOS } from './harness/scenarios.js';

const ADAPTERS: AgentAdapter[] = [claude, codex, gemini, qwen, copilot, droid];
const unavailable = namespaceUnavailable();
const baseline = SCENARIOS.find((s) => s.id === 'baseline')!;

describe.each(ADAPTERS.map((a) => [a.name, a] as const))('install --agent %s in the real agent', (name, adapter) => {
  test('the installed guard denies rm -rf, and uninstall takes the file out again', async (ctx) => {
    if (unavailable) ctx.skip(`not runnable here: ${unavailable}`);
    const bin = ensureAgent(adapter.name);
    const dirs = makeRunDirs(`install-${name}`);
    try {
      mkdirSync(join(dirs.work, 'victim'));
      writeFileSync(join(dirs.work, 'victim', 'keep'), 'x');
      const ran = join(dirs.root, 'guard-ran');
      const guard = join(dirs.work, 'guard.json');
      writeFileSync(
        guard,
        JSON.stringify({
          hooks: {
            PreToolUse: [
              { matcher: 'Bash', hooks: [{ type: 'command', command: `touch '${ran}'; echo 'GUARD: no rm -rf here' >&2; exit 2` }] },
            ],
          },
        }),
      );
      // The agent set up as for a run without hooks (model, permissive mode), then install writes the project's config.
      const run = adapter.prepare(dirs, { ...baseline, hooks: [], permissive: true }, 'native', bin);
      run.script = { toolCalls: [adapter.tools.shell('rm -rf victim')] };
      const spec = (await installSpecOf(name))!;
      const target = spec.target('project', { projectDir: dirs.work, homeDir: dirs.home, env: {} }) as string;
      expect(existsSync(target)).toBe(false);
      const cli = (...args: string[]) => runCli(args, { cwd: dirs.work, env: run.env, entry: CLI_BIN });
      const installed = cli('install', '--agent', name, '--scope', 'project', '--settings', guard);
      expect([installed.code, installed.stderr]).toEqual([0, '']);
      // Codex reads a project's .codex/ only in a trusted project: the user's step, done here as a user would.
      if (name === 'codex')
        appendFileSync(join(dirs.home, '.codex', 'config.toml'), `\n[projects.${JSON.stringify(dirs.work)}]\ntrust_level = "trusted"\n`);
      const written = readFileSync(target, 'utf8');
      const outcome = await runInNamespace(dirs, run);
      const log = `exit ${outcome.code}; ${outcome.requests.length} model requests\nstdout: ${outcome.stdout.slice(-1500)}\nstderr: ${outcome.stderr.slice(-1500)}`;
      expect(outcome.requests.length, log).toBeGreaterThan(0);
      expect(existsSync(ran), `the guard was never asked\n${log}`).toBe(true);
      expect(existsSync(join(dirs.work, 'victim', 'keep')), `rm -rf ran\n${log}`).toBe(true);
      expect(JSON.stringify(outcome.requests.slice(1).map((r) => r.body))).toContain('GUARD: no rm -rf here');
      const agentChanged = readFileSync(target, 'utf8') !== written;
      if (name !== 'qwen') expect(agentChanged).toBe(false);
      const removed = cli('uninstall', '--agent', name, '--scope', 'project');
      expect(removed.code).toBe(0);
      const after = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
      // An agent that rewrote the file meanwhile (Qwen Code adds "$version") keeps its change; only our lines go.
      if (agentChanged) expect(after).not.toContain('AGENT_HOOKS_CLI=');
      else expect(after).toBeUndefined();
    } finally {
      rmSync(dirs.root, { recursive: true, force: true });
    }
  });
});

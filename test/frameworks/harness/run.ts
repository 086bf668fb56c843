/**
 * Runs one scenario cell for one framework: a temp project, the agents suite's fake model on a
 * loopback port (test/agents/harness/fake-model.mjs), the engine with the scenario's hooks (from
 * inline settings, or a trusted project's .claude/settings.json), and the framework's own agent
 * loop driven by the framework's test (a `FrameworkDriver`). What is judged is observed: the
 * shell tool's recorded inputs and the fake model's request log.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHookEngine, type HookEngine, loadConfig, loadTrustedConfig, trustWorkspace } from '../../../src/index.js';
// @ts-expect-error plain JavaScript module shared with the agents suite
import { startFakeModel } from '../../agents/harness/fake-model.mjs';
import { commandFor, type FrameworkScenario, type Observation, type Verdict } from './scenarios.js';

const HOOK = fileURLToPath(new URL('../../agents/harness/hook.mjs', import.meta.url));

export type HookCommand = (mode: string, token: string) => string;
export type Mode = 'native' | 'adapter';

export interface CellContext {
  scenario: FrameworkScenario;
  mode: Mode;
  /** The fake model's base URL, `http://127.0.0.1:<port>/v1`. */
  baseURL: string;
  /** The engine with the scenario's hooks (adapter mode only). */
  engine?: HookEngine;
  /** The project directory (the shell tool's cwd and the hooks' cwd). */
  work: string;
  /** The shell tool's body: runs `command` with sh in `work`, records the input, returns stdout and stderr. */
  shell(command: string): Promise<string>;
}

/** What a driver reports besides what the harness observes itself. */
export interface CellRun {
  approvalRequested?: boolean;
}

export interface FrameworkDriver {
  /** Results file name and test label (`ai-sdk`). */
  name: string;
  title: string;
  /** The packages whose pinned versions the table shows. */
  packages: string[];
  /** The fake model's wire API the framework's provider speaks. */
  api: 'chat' | 'responses' | 'anthropic';
  /** Scenarios the framework cannot express even with the adapter: id → why. */
  notExpressible?: Record<string, string>;
  /** Run the framework's agent loop for one cell; throws what the framework threw. */
  run(ctx: CellContext): Promise<CellRun>;
}

export interface CellResult {
  verdict: Verdict;
  detail: string;
  ran: string[];
}

function settingsFor(scenario: FrameworkScenario, runDir: string) {
  const hook: HookCommand = (mode, token) => `node ${JSON.stringify(HOOK)} ${JSON.stringify(runDir)} claude ${mode} ${token}`;
  const hooks: Record<string, unknown[]> = {};
  for (const spec of scenario.hooks) {
    const handler = {
      type: 'command',
      command: commandFor(spec, hook),
      ...(spec.timeout ? { timeout: spec.timeout } : {}),
      ...(spec.timeoutBehavior ? { timeoutBehavior: spec.timeoutBehavior } : {}),
    };
    hooks[spec.event] = [...(hooks[spec.event] ?? []), { ...(spec.matcher ? { matcher: spec.matcher } : {}), hooks: [handler] }];
  }
  return { hooks };
}

/**
 * The engine as an app builds it: inline settings, or a project's settings file it has trusted.
 * `root` (hook log, trust store, home) is outside `work`: a write inside a trusted workspace
 * would change it, and the engine would rightly refuse the hook's answer.
 */
async function engineFor(scenario: FrameworkScenario, root: string, work: string): Promise<HookEngine> {
  const settings = settingsFor(scenario, root);
  const home = join(root, 'home');
  const managedSettingsPath = join(root, 'no-managed-settings.json');
  if (!scenario.project) {
    const config = await loadConfig({ cwd: work, discover: false, settingsFiles: [JSON.stringify(settings)] });
    return createHookEngine({ hooks: config.hooks, projectDir: work });
  }
  // A project's own guard script, as a repository ships it (hook.mjs writes its log, which a pin would see change).
  mkdirSync(join(work, '.claude', 'hooks'), { recursive: true });
  const [spec] = scenario.hooks;
  const answer = { hookSpecificOutput: { hookEventName: spec!.event, permissionDecision: 'deny', permissionDecisionReason: spec!.token } };
  writeFileSync(join(work, '.claude', 'hooks', 'guard.mjs'), `process.stdout.write(${JSON.stringify(JSON.stringify(answer))});\n`);
  const command = 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.mjs"';
  const project = { hooks: { [spec!.event]: [{ matcher: spec!.matcher, hooks: [{ type: 'command', command }] }] } };
  writeFileSync(join(work, '.claude', 'settings.json'), JSON.stringify(project, null, 2));
  const storePath = join(root, 'trust.json');
  const load = { cwd: work, homeDir: home, managedSettingsPath };
  const trustOptions = { workspaceDir: work, storePath, homeDir: home, hashCache: false as const };
  const { trust } = await loadTrustedConfig(load, trustOptions);
  await trustWorkspace(trust, { allowUnpinned: true });
  const { config } = await loadTrustedConfig(load, trustOptions);
  if (config.hooks.length === 0) throw new Error('the trusted project hooks did not load');
  return createHookEngine({ hooks: config.hooks, projectDir: work });
}

export async function runCell(driver: FrameworkDriver, scenario: FrameworkScenario, mode: Mode): Promise<CellResult> {
  if (mode === 'adapter' && driver.notExpressible?.[scenario.id]) {
    return { verdict: 'na', detail: driver.notExpressible[scenario.id]!, ran: [] };
  }
  const root = mkdtempSync(join(tmpdir(), `fw-${driver.name}-${scenario.id}-`));
  const work = mkdtempSync(join(tmpdir(), `fw-work-${scenario.id}-`));
  mkdirSync(join(root, 'home'), { recursive: true });
  const logFile = join(root, 'requests.jsonl');
  writeFileSync(logFile, '');
  const script = { toolCalls: scenario.commands.map((command) => ({ name: 'bash', input: { command } })) };
  const server: Server = await startFakeModel({ api: driver.api, script, logFile, port: 0 });
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const ran: Array<{ command: string }> = [];
  const shell = (command: string) => {
    ran.push({ command });
    return new Promise<string>((resolve) => {
      execFile('sh', ['-c', command], { cwd: work, timeout: 10_000 }, (_err, stdout, stderr) => resolve(`${stdout}${stderr}`));
    });
  };
  let engine: HookEngine | undefined;
  let run: CellRun = {};
  let error: string | undefined;
  try {
    if (mode === 'adapter') engine = await engineFor(scenario, root, work);
    run = await driver.run({ scenario, mode, baseURL, work, shell, ...(engine ? { engine } : {}) });
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  } finally {
    await engine?.close();
    await new Promise((r) => server.close(r));
  }
  const bodies = readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.stringify((JSON.parse(l) as { body: unknown }).body));
  const obs: Observation = {
    ran,
    all: bodies.join('\n'),
    later: bodies.slice(1).join('\n'),
    approvalRequested: run.approvalRequested ?? false,
    ...(error !== undefined ? { error } : {}),
  };
  if (!process.env.AGENT_HOOKS_KEEP_RUNS) for (const dir of [root, work]) rmSync(dir, { recursive: true, force: true });
  const judged = scenario.judge(obs);
  // A run that threw is judged on what happened, but says so (a blocked prompt throws by design).
  const detail = error && judged.verdict !== 'open' ? `${judged.detail} (the run threw: ${error.slice(0, 160)})` : judged.detail;
  return { ...judged, detail, ran: ran.map((r) => r.command) };
}

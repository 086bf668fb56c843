/**
 * The frameworks suite's shared set-up: a scripted fake model on a loopback port (the agents
 * suite's fake-model.mjs), an engine from Claude-format hooks of the agents suite's hook.mjs, the
 * `bash` tool every framework's agent gets, the scenario matrix and its judges, and the results file.
 * Each framework's test builds its agent with the framework's own loop and provider package.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createHookEngine, type HookEngine, type LoadedConfig, loadConfig, loadTrustedConfig, trustWorkspace } from '../../src/index.js';
// @ts-expect-error plain JavaScript module of the agents suite
import { startFakeModel } from '../agents/harness/fake-model.mjs';
import { hookCommand, makeRunDirs, type RunDirs, type WireApi } from '../agents/harness/run.js';
import type { HookSpec } from '../agents/harness/scenarios.js';
import { installedVersion } from './harness/matrix.js';
import { SCENARIOS } from './harness/scenarios.js';

export const RESULTS_DIR = join(import.meta.dirname, 'results');
export const SECRET = 'secret-value-42';
const RUN = 'touch ran-marker; echo hi';
// Prints SECRET without containing it, so SECRET in a request means the output leaked.
const PRINT_SECRET = 'echo c2VjcmV0LXZhbHVlLTQy | base64 -d; echo; touch ran-marker';

export interface FakeModel {
  url: string;
  /** Every request body the model got, in order. */
  requests(): unknown[];
  close(): Promise<void>;
}

export async function startModel(
  dirs: RunDirs,
  api: WireApi,
  calls: Array<{ name: string; input: Record<string, unknown> }>,
): Promise<FakeModel> {
  const logFile = join(dirs.root, 'model-requests.jsonl');
  const server: Server = await startFakeModel({ api, script: { toolCalls: calls }, logFile, port: 0 });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () =>
      existsSync(logFile)
        ? readFileSync(logFile, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => (JSON.parse(l) as { body: unknown }).body)
        : [],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The `bash` tool's body: runs the command in the run's work folder (only harmless commands: touch, echo). */
export function runShell(command: string, dirs: RunDirs): string {
  return execFileSync('sh', ['-c', command], { cwd: dirs.work, encoding: 'utf8' });
}

export interface FwScenario {
  id: string;
  hooks: HookSpec[];
  prompt: string;
  command?: string;
  /** The app's answer to an ask (approval / interrupt). */
  answer?: 'approve' | 'reject';
  /** The hooks come from the project's `.claude/settings.json`, trusted with trustWorkspace. */
  project?: true;
  /** A PreToolUse hook that sleeps past its 1 s timeout, with timeoutBehavior deny. */
  timeout?: true;
  judge(o: Observed): { verdict: Verdict; note: string };
}

export type Verdict = 'honoured' | 'fails closed' | 'FAILS OPEN';

export interface Observed {
  ran: boolean;
  rewritten: boolean;
  /** Every request after the first, as one string: what the model received next. */
  later: string;
  /** Each request's body, as a string. */
  all: string[];
  /** What the app got back (final text, error message). */
  final: string;
  /** The framework's approval mechanism was used (an interrupt, an approval request). */
  asked: boolean;
}

export function observe(dirs: RunDirs, model: FakeModel, final: string, asked = false): Observed {
  const all = model.requests().map((b) => JSON.stringify(b));
  return {
    ran: existsSync(join(dirs.work, 'ran-marker')),
    rewritten: existsSync(join(dirs.work, 'rewritten-marker')),
    later: all.slice(1).join('\n'),
    all,
    final,
    asked,
  };
}

const deny = (token: string) => (o: Observed) =>
  o.ran
    ? { verdict: 'FAILS OPEN' as const, note: 'the command ran' }
    : {
        verdict: 'honoured' as const,
        note: o.later.includes(token) ? 'not run; the reason reached the model' : 'not run; reason not seen by the model',
      };
const context = (token: string) => (o: Observed) =>
  o.later.includes(token) || o.all.join('\n').includes(token)
    ? { verdict: 'honoured' as const, note: 'the context reached the model' }
    : { verdict: 'fails closed' as const, note: 'the context did not reach the model' };

const pre = (mode: string, token: string): HookSpec => ({ event: 'PreToolUse', matcher: 'Bash', mode, token });

export const FW_SCENARIOS: FwScenario[] = [
  { id: 'deny', hooks: [pre('deny-json', 'DENY-REASON')], prompt: 'Run it.', command: RUN, judge: deny('DENY-REASON') },
  {
    id: 'rewrite',
    hooks: [pre('rewrite', 'REWRITE')],
    prompt: 'Run it.',
    command: RUN,
    judge: (o) =>
      o.ran
        ? { verdict: 'FAILS OPEN', note: 'the original command ran' }
        : o.rewritten
          ? { verdict: 'honoured', note: 'the rewritten command ran' }
          : { verdict: 'fails closed', note: 'neither command ran' },
  },
  {
    id: 'ask-approved',
    hooks: [pre('ask', 'ASK-REASON')],
    prompt: 'Run it.',
    command: RUN,
    answer: 'approve',
    judge: (o) =>
      !o.asked
        ? { verdict: o.ran ? 'FAILS OPEN' : 'fails closed', note: o.ran ? 'ran without being asked' : 'not asked, not run' }
        : o.ran
          ? { verdict: 'honoured', note: 'asked, approved, the command ran' }
          : { verdict: 'fails closed', note: 'asked and approved, but not run' },
  },
  {
    id: 'ask-refused',
    hooks: [pre('ask', 'ASK-REASON')],
    prompt: 'Run it.',
    command: RUN,
    answer: 'reject',
    judge: (o) => {
      const d = deny('ASK-REASON')(o);
      return d.verdict === 'honoured' && !o.asked ? { verdict: 'fails closed', note: `${d.note}; denied without asking` } : d;
    },
  },
  {
    id: 'context-before',
    hooks: [pre('context', 'CTX-BEFORE-TOKEN')],
    prompt: 'Run it.',
    command: RUN,
    judge: context('CTX-BEFORE-TOKEN'),
  },
  {
    id: 'context-after',
    hooks: [{ event: 'PostToolUse', matcher: 'Bash', mode: 'context', token: 'CTX-AFTER-TOKEN' }],
    prompt: 'Run it.',
    command: RUN,
    judge: context('CTX-AFTER-TOKEN'),
  },
  {
    id: 'replace-output',
    hooks: [{ event: 'PostToolUse', matcher: 'Bash', mode: 'replace-output', token: 'REDACTED-OUTPUT' }],
    prompt: 'Run it.',
    command: PRINT_SECRET,
    judge: (o) =>
      !o.ran
        ? { verdict: 'fails closed', note: 'the command did not run' }
        : o.later.includes(SECRET)
          ? { verdict: 'FAILS OPEN', note: 'the original output reached the model' }
          : o.later.includes('REDACTED-OUTPUT')
            ? { verdict: 'honoured', note: 'the replacement reached the model' }
            : { verdict: 'fails closed', note: 'the output was withheld' },
  },
  {
    id: 'prompt-block',
    hooks: [{ event: 'UserPromptSubmit', mode: 'block', token: 'PROMPT-BLOCK-REASON' }],
    prompt: 'PROMPT-MUST-NOT-REACH-MODEL say done.',
    judge: (o) =>
      o.all.join('\n').includes('PROMPT-MUST-NOT-REACH-MODEL')
        ? { verdict: 'FAILS OPEN', note: 'the prompt reached the model' }
        : { verdict: 'honoured', note: o.final.includes('PROMPT-BLOCK-REASON') ? 'blocked; the app got the reason' : 'blocked' },
  },
  {
    id: 'stop-keep-going',
    hooks: [{ event: 'Stop', mode: 'stop-once', token: 'KEEP-GOING-TOKEN' }],
    prompt: 'Say done.',
    judge: (o) =>
      o.all.join('\n').includes('KEEP-GOING-TOKEN')
        ? { verdict: 'honoured', note: 'the model got the reason and went on' }
        : { verdict: 'fails closed', note: 'the agent stopped (keep-going not expressed; nothing unsafe)' },
  },
  {
    id: 'project-guard',
    hooks: [pre('deny-json', 'PROJECT-GUARD-REASON')],
    project: true,
    prompt: 'Run it.',
    command: RUN,
    judge: deny('PROJECT-GUARD-REASON'),
  },
  { id: 'hook-timeout', hooks: [], timeout: true, prompt: 'Run it.', command: RUN, judge: deny('timed out') },
];

/** The scenario's hooks as Claude-format settings of hook.mjs (the timeout scenario: a `sleep` past its 1 s timeout). */
function settingsOf(dirs: RunDirs, s: FwScenario): Record<string, unknown> {
  const hooks: Record<string, unknown[]> = {};
  for (const h of s.hooks) {
    hooks[h.event] = hooks[h.event] ?? [];
    hooks[h.event]!.push({
      ...(h.matcher ? { matcher: h.matcher } : {}),
      hooks: [{ type: 'command', command: hookCommand(dirs, 'claude', h.mode, h.token), timeout: 60 }],
    });
  }
  if (s.timeout)
    hooks.PreToolUse = [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sleep 5', timeout: 1, timeoutBehavior: 'deny' }] }];
  return { hooks };
}

/** Where the engine's hooks come from: a settings file, or the project's own, trusted (`project`). */
export interface HookSource {
  settingsFile?: string;
  project?: { storePath: string };
  noManaged: string;
}

/** Writes the scenario's hooks where a builder keeps them (and trusts the project's); the engine loads them. */
export async function prepareHooks(dirs: RunDirs, s: FwScenario): Promise<HookSource> {
  const noManaged = join(dirs.root, 'no-managed.json');
  if (!s.project) {
    const settingsFile = join(dirs.root, 'settings.json');
    writeFileSync(settingsFile, JSON.stringify(settingsOf(dirs, s)));
    return { settingsFile, noManaged };
  }
  // A guard script of the project's own (hook.mjs logs into the run folder, which the trust pins would see change).
  mkdirSync(join(dirs.work, '.claude', 'hooks'), { recursive: true });
  const out = {
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: s.hooks[0]!.token },
  };
  writeFileSync(join(dirs.work, '.claude', 'hooks', 'guard.sh'), `cat > /dev/null; echo '${JSON.stringify(out)}'\n`);
  const guard = { matcher: 'Bash', hooks: [{ type: 'command', command: 'sh "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh"' }] };
  writeFileSync(join(dirs.work, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [guard] } }));
  const project = { storePath: join(dirs.root, 'trust.json') };
  const load = { cwd: dirs.work, projectDir: dirs.work, homeDir: dirs.home, managedSettingsPath: noManaged };
  await trustWorkspace((await loadTrustedConfig(load, { ...project, homeDir: dirs.home })).trust);
  return { project, noManaged };
}

/** The engine a builder makes from `source` (test/frameworks/claude-sdk-run.mjs does the same in its namespace). */
export async function engineFor(dirs: RunDirs, s: FwScenario): Promise<HookEngine> {
  const source = await prepareHooks(dirs, s);
  const base = { cwd: dirs.work, homeDir: dirs.home, managedSettingsPath: source.noManaged };
  let hooks: LoadedConfig['hooks'];
  if (source.project) {
    const { config, trust } = await loadTrustedConfig({ ...base, projectDir: dirs.work }, { ...source.project, homeDir: dirs.home });
    if (trust.state !== 'trusted' || config.hooks.length === 0) throw new Error(`project not trusted: ${trust.state}`);
    hooks = config.hooks;
  } else {
    hooks = (await loadConfig({ ...base, discover: false, settingsFiles: [source.settingsFile!] })).hooks;
  }
  return createHookEngine({ hooks, projectDir: dirs.work, cwd: dirs.work, homeDir: dirs.home });
}

export function fwDirs(label: string): RunDirs {
  return makeRunDirs(`fw-${label}`);
}

export interface Cell {
  scenario: string;
  /** What the framework alone did, and its judge's verdict. */
  native: string;
  nativeVerdict: Verdict;
  adapter: string;
  verdict: Verdict;
  note: string;
}

/** The framework as the docs table names it, and the packages whose pinned versions it shows. */
export interface ResultsFor {
  name: string;
  title: string;
  packages: string[];
  /** Scenarios the framework cannot express even with the adapter: id → why. */
  notExpressible?: Record<string, string>;
}

// Scenarios where the framework alone loses nothing unsafe, only what the hooks add.
const ADDS_ONLY = new Set(['context-before', 'context-after', 'prompt-context', 'stop-keep-going']);

/** This harness's verdicts in the one results shape the docs table reads (test/frameworks/harness/matrix.ts writes it too). */
function asCellResult(verdict: Verdict, detail: string) {
  if (verdict === 'honoured') return { verdict: 'honoured', detail };
  if (verdict === 'fails closed') return { verdict: 'closed', detail };
  return { verdict: 'open', detail };
}

export function writeResults(fw: ResultsFor, cells: Cell[]): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const out: Record<string, unknown> = {};
  for (const { id, title } of SCENARIOS) {
    const c = cells.find((x) => x.scenario === id);
    const na = fw.notExpressible?.[id];
    if (na) out[id] = { title, adapter: { verdict: 'na', detail: na } };
    if (!c) continue;
    const native = asCellResult(c.nativeVerdict, c.native);
    if (ADDS_ONLY.has(id) && native.verdict !== 'honoured') native.verdict = 'ignored';
    out[id] = { title, native, adapter: asCellResult(c.verdict, `${c.adapter}: ${c.note}`) };
  }
  const versions = Object.fromEntries(fw.packages.map((p) => [p, installedVersion(p)]));
  const results = { framework: fw.title, name: fw.name, versions, cells: out };
  writeFileSync(join(RESULTS_DIR, `${fw.name}.json`), `${JSON.stringify(results, null, 2)}\n`);
}

/** Scenarios whose native run (no adapter) must not pass the judge: the proof that a cell can fail. */
export const NATIVE_MUST_FAIL = new Set(FW_SCENARIOS.map((s) => s.id).filter((id) => id !== 'ask-approved'));

/**
 * One scenario, run by the framework alone and with the adapter: the cell is recorded for the docs
 * table, the native run must not pass where it proves the cell can fail, and the adapter's run
 * must be honoured (never FAILS OPEN). Returns the adapter's run for a framework's own checks.
 */
export async function judgeBothWays(
  s: FwScenario,
  run: (s: FwScenario, withAdapter: boolean) => Promise<Observed>,
  cells: Cell[],
): Promise<Observed> {
  const native = await run(s, false);
  const adapted = await run(s, true);
  const { verdict, note } = s.judge(adapted);
  const nat = s.judge(native);
  cells.push({
    scenario: s.id,
    native: `${summary(native)}: ${nat.note}`,
    nativeVerdict: nat.verdict,
    adapter: summary(adapted),
    verdict,
    note,
  });
  if (NATIVE_MUST_FAIL.has(s.id)) expect(nat.verdict, `without the adapter: ${nat.note}`).not.toBe('honoured');
  expect(verdict, `${note}; final: ${adapted.final}`).not.toBe('FAILS OPEN');
  expect(verdict, `${note}; final: ${adapted.final}`).toBe('honoured');
  return adapted;
}

/** What a run did, in a few words, for the results file. */
export function summary(o: Observed): string {
  const parts = [o.ran ? 'tool ran' : o.rewritten ? 'rewritten tool ran' : 'tool not run'];
  if (o.asked) parts.push('asked');
  if (o.later.includes(SECRET)) parts.push('secret reached the model');
  return parts.join(', ');
}

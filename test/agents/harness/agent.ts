/**
 * What the matrix needs from each agent, and the matrix runner that records every cell.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PINS, type AgentName } from './cache.js';
import { brokenInstall, makeRunDirs, runInNamespace, tracedDispatchCommand, type NamespaceRun, type RunDirs, type WireApi } from './run.js';
import { observe, SCENARIOS, type AgentTools, type HookSpec, type Scenario, type Verdict } from './scenarios.js';

/**
 * native: the hook in the agent's own config. dispatch: the agent's config runs `dispatch` with a
 * Claude-format engine config of the same hook. native-file: the agent's config runs `dispatch
 * --dialect <agent>`, and the engine reads the native config the agent would have read (its
 * hooks, in its format, answering in its format).
 */
export type Mode = 'native' | 'dispatch' | 'native-file';

export interface AgentAdapter {
  name: AgentName;
  api: WireApi;
  tools: AgentTools;
  /** Why the agent's own config cannot express these hooks, or null when it can. */
  nativeUnsupported(hooks: HookSpec[]): string | null;
  /** Writes the run's config files and returns how to start the agent. */
  prepare(dirs: RunDirs, scenario: Scenario, mode: 'native' | 'dispatch', bin: string): NamespaceRun;
  /** Where the agent's own config keeps `hooks`, and how an entry of an event's list is written. */
  hookFile?: {
    path(dirs: RunDirs): string;
    /** One entry of an event's list running `command` (a matcher group, or a bare handler). */
    entry(command: string): Record<string, unknown>;
    /** Options dispatch needs for this native event (Copilot's payload does not name it). */
    dispatchArgs?(nativeEvent: string): string[];
  };
}

/**
 * Turns a run prepared natively into one where the agent runs `dispatch --dialect <agent>` for
 * each event of its config, and the engine reads the agent's hooks from a copy of that config.
 */
export function nativeFileThroughDispatch(adapter: AgentAdapter, dirs: RunDirs): void {
  const spec = adapter.hookFile;
  if (!spec) throw new Error(`${adapter.name}: no hookFile to move behind dispatch`);
  const file = spec.path(dirs);
  const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const hooks = (config.hooks ?? {}) as Record<string, unknown>;
  const engineFile = join(dirs.root, `native-${adapter.name}-hooks.json`);
  writeFileSync(engineFile, JSON.stringify(config, null, 2));
  config.hooks = Object.fromEntries(
    Object.keys(hooks).map((event) => [
      event,
      [
        spec.entry(
          tracedDispatchCommand(dirs, adapter.name, engineFile, ['--dialect', adapter.name, ...(spec.dispatchArgs?.(event) ?? [])]),
        ),
      ],
    ]),
  );
  writeFileSync(file, JSON.stringify(config, null, 2));
}

export interface Cell {
  verdict: Verdict;
  detail: string;
}

export interface AgentResults {
  agent: AgentName;
  version: string;
  /** The npm specs the suite installed (and why, where the pin is not the obvious one). */
  packages?: string[];
  note?: string;
  /** null when runnable; else why not (the whole row is then "not runnable here"). */
  notRunnable: string | null;
  cells: Record<string, { title?: string } & Partial<Record<Mode, Cell>>>;
}

export const RESULTS_DIR = join(import.meta.dirname, '..', 'results');

/**
 * Writes the agent's results file. A filtered run (vitest -t) updates only the cells it ran:
 * the others are kept from the file while the agent version is the same.
 */
/** The list under `key`, made on first use (config writers group hooks by event). */
export function listAt<T>(map: Record<string, T[]>, key: string): T[] {
  const list = map[key] ?? [];
  map[key] = list;
  return list;
}

export function writeResults(results: AgentResults): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${results.agent}.json`);
  let previous: AgentResults | undefined;
  try {
    previous = JSON.parse(readFileSync(file, 'utf8'));
  } catch {}
  const keep = previous && previous.version === results.version && !results.notRunnable && !previous.notRunnable ? previous.cells : {};
  const pin = PINS[results.agent];
  const ordered: AgentResults = { ...results, packages: pin.packages, ...(pin.note ? { note: pin.note } : {}), cells: {} };
  for (const s of SCENARIOS) {
    const cell = { ...keep[s.id], ...results.cells[s.id] };
    if (Object.keys(cell).length) ordered.cells[s.id] = { ...cell, title: s.title };
  }
  writeFileSync(file, `${JSON.stringify(ordered, null, 2)}\n`);
}

export function scenariosFor(agent: AgentName): Scenario[] {
  return SCENARIOS.filter((s) => !s.only || s.only.includes(agent));
}

/** Runs one cell; never throws for the agent's behaviour (that is what the verdict is for). */
export async function runCell(adapter: AgentAdapter, bin: string, scenario: Scenario, mode: Mode): Promise<Cell & { log?: string }> {
  if (mode !== 'dispatch') {
    const why = adapter.nativeUnsupported(scenario.hooks);
    if (why) return { verdict: 'na', detail: `n/a natively: ${why}` };
  }
  if (scenario.brokenInstall && mode === 'native') return { verdict: 'na', detail: 'n/a natively: concerns an agent-hooks install only' };
  const dirs = makeRunDirs(`${adapter.name}-${scenario.id}-${mode}`);
  if (scenario.brokenInstall) dirs.cli = brokenInstall(dirs.root);
  try {
    const calls = scenario.calls(adapter.tools, dirs);
    if (calls === null) return { verdict: 'na', detail: 'the agent has no such tool' };
    const run = adapter.prepare(dirs, scenario, mode === 'dispatch' ? 'dispatch' : 'native', bin);
    if (mode === 'native-file') nativeFileThroughDispatch(adapter, dirs);
    run.script = { toolCalls: calls };
    const outcome = await runInNamespace(dirs, run);
    const obs = observe(dirs, outcome);
    const nonLoopback = outcome.interfaces.filter((l) => !/^\d+: lo:/.test(l));
    if (nonLoopback.length) throw new Error(`namespace had more than loopback: ${nonLoopback.join('; ')}`);
    const log = `exit ${outcome.code}${outcome.timedOut ? ' (timed out)' : ''}, ${outcome.requests.length} model requests, ${outcome.hookPayloads.length} hook calls\nstdout: ${outcome.stdout.slice(-1500)}\nstderr: ${outcome.stderr.slice(-1500)}`;
    if (outcome.requests.length === 0 && scenario.id !== 'prompt-block') {
      return {
        verdict: 'error',
        detail: `the agent never called the model (exit ${outcome.code}${outcome.timedOut ? ', timed out' : ''})`,
        log,
      };
    }
    const judged = scenario.judge(obs);
    const fired = mode === 'native' ? outcome.hookPayloads.length > 0 : outcome.dispatchCalls > 0;
    if (scenario.hooks.length && !fired && judged.verdict !== 'honoured') {
      return { verdict: 'unfired', detail: `the agent never ran the hook (${judged.detail})`, log };
    }
    return { ...judged, log };
  } finally {
    if (!process.env.AGENT_HOOKS_KEEP_RUNS) rmSync(dirs.root, { recursive: true, force: true });
  }
}

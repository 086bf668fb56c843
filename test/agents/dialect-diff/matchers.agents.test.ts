/**
 * Matchers of another agent's hook config, read by the engine as that agent reads them. Each
 * agent runs twice offline (loopback-only namespace, fake model) with the same groups of hooks,
 * one per matcher spelling, each logging `[matcher]|tool` when it runs: "native", the groups in
 * the agent's own config; "dispatch", the agent's config holding only `agent-hooks dispatch
 * --agent A --dialect A --settings <the same groups>`, so the engine reads the agent's file with
 * the agent's matcher rules (docs/dialects.md, "Hooks of another dialect run by the engine"). The
 * hooks that ran must be the same: a matcher the engine reads more narrowly would skip a guard
 * the agent runs. Results: test/agents/dialect-diff/matchers.json.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nativeFileThroughDispatch, type AgentAdapter } from '../harness/agent.js';
import { ensureAgent, PINS, type AgentName } from '../harness/cache.js';
import { codex } from '../harness/codex.js';
import { droid } from '../harness/droid.js';
import { gemini } from '../harness/gemini.js';
import { qwen } from '../harness/qwen.js';
import { makeRunDirs, namespaceUnavailable, runInNamespace, type RunDirs } from '../harness/run.js';
import { writeMergedResults } from './results.js';
import type { Scenario } from '../harness/scenarios.js';

const RESULTS = join(import.meta.dirname, 'matchers.json');

interface DialectCase {
  /** The agent; its `hookFile` says where its hooks live and how a group is written. */
  adapter: AgentAdapter;
  /** The native event of a tool call before it runs. */
  event: string;
  matchers: string[];
}

/**
 * Spellings of a matcher for the shell tool (and the file-writing tool), each once, then the
 * first again: an identical group, which shows whether the agent runs an identical hook twice.
 */
const shellToolMatchers = (shell: string, write: string, extra: string[] = []) => {
  const once = [...new Set([...spellings(shell, write), ...extra])];
  return [...once, shell];
};

const spellings = (shell: string, write: string) => [
  shell,
  `${shell}|${write}`,
  `^${shell}$`,
  shell.toUpperCase(),
  `${shell.slice(0, 5)}.*`,
  shell.slice(0, 5),
  shell.slice(2),
  '.*',
  '*',
  '',
  ` ${shell}`,
  `${shell} `,
  `${shell},${write}`,
  `${shell}|`,
  `(${shell})`,
  write,
  'Bash',
  'Write',
  '[',
];

const CASES: DialectCase[] = [
  {
    adapter: gemini,
    event: 'BeforeTool',
    matchers: shellToolMatchers('run_shell_command', 'write_file'),
  },
  {
    adapter: qwen,
    event: 'PreToolUse',
    matchers: shellToolMatchers('run_shell_command', 'write_file'),
  },
  {
    adapter: codex,
    event: 'PreToolUse',
    matchers: shellToolMatchers('Bash', 'apply_patch', ['Edit', 'Write|Edit', 'exec_command', 'shell']),
  },
  {
    adapter: droid,
    event: 'PreToolUse',
    matchers: shellToolMatchers('Execute', 'Create', ['Edit|Create', 'Execute, Create']),
  },
];

/** A scenario only for the adapter to write its config and say how to start the agent. */
function scenarioFor(adapter: AgentAdapter): Scenario {
  return {
    id: 'matchers',
    title: 'matcher spellings',
    hooks: [{ event: 'PreToolUse', matcher: 'Bash', mode: 'log', token: 'MATCHERS' }],
    permissive: true,
    prompt: 'Do the task.',
    calls: (tools) => [tools.shell('true'), tools.writeFile('m.txt', 'x\n')].filter((c) => c !== null),
    judge: () => ({ verdict: 'honoured', detail: '' }),
    only: [adapter.name],
  };
}

/** One group per matcher, each hook logging `[matcher]|tool_name` to the work folder. */
function groups(c: DialectCase, dirs: RunDirs): unknown[] {
  const log = join(dirs.work, 'hook-runs.log');
  return c.matchers.map((m) => ({
    ...(m === '' ? {} : { matcher: m }),
    ...hookFile(c).entry(`jq -r --arg m '${m}' '"[" + $m + "]|" + (.tool_name // "?")' >> '${log}'`),
  }));
}

function hookFile(c: DialectCase): NonNullable<AgentAdapter['hookFile']> {
  if (!c.adapter.hookFile) throw new Error(`${c.adapter.name}: the adapter names no hook file`);
  return c.adapter.hookFile;
}

function hookRuns(dirs: RunDirs): string[] {
  const file = join(dirs.work, 'hook-runs.log');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).sort() : [];
}

async function runOnce(c: DialectCase, bin: string, mode: 'native' | 'dispatch'): Promise<{ hookRuns: string[]; error?: string }> {
  const dirs = makeRunDirs(`dmatch-${c.adapter.name}-${mode}`);
  const scenario = scenarioFor(c.adapter);
  const run = c.adapter.prepare(dirs, scenario, 'native', bin);
  const file = hookFile(c).path(dirs);
  const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  config.hooks = { [c.event]: groups(c, dirs) };
  writeFileSync(file, JSON.stringify(config, null, 2));
  // The same file behind dispatch: the agent runs `dispatch --dialect`, the engine reads the groups.
  if (mode === 'dispatch') nativeFileThroughDispatch(c.adapter, dirs);
  const calls = scenario.calls(c.adapter.tools, dirs) ?? [];
  const outcome = await runInNamespace(dirs, { ...run, script: { toolCalls: calls } });
  const error = outcome.timedOut ? 'timed out' : (outcome.spawnError ?? undefined);
  return { hookRuns: hookRuns(dirs), ...(error ? { error } : {}) };
}

const results: Record<string, unknown> = {};
const why: string | null = namespaceUnavailable();

describe.concurrent('other agents: matcher spellings read by the engine as the agent reads them', () => {
  afterAll(() => writeMergedResults(RESULTS, why, results));

  for (const c of CASES) {
    const name = c.adapter.name as AgentName;
    it(`${name} ${PINS[name].version}`, async (ctx) => {
      if (why) ctx.skip(`not runnable here: ${why}`);
      let bin: string;
      try {
        bin = ensureAgent(name);
      } catch (err) {
        ctx.skip(`install failed: ${String((err as Error).message).slice(0, 300)}`);
        return;
      }
      const native = await runOnce(c, bin, 'native');
      const engine = await runOnce(c, bin, 'dispatch');
      results[name] = { version: PINS[name].version, matchers: c.matchers, native, engine };
      expect(native.error, `${name} native run`).toBeUndefined();
      expect(engine.error, `${name} dispatch run`).toBeUndefined();
      // The native run must have run hooks at all, or the comparison says nothing.
      expect(native.hookRuns.length, `${name} ran none of its hooks`).toBeGreaterThan(0);
      expect(engine.hookRuns, `${name}: the engine ran other hooks than ${name} itself`).toEqual(native.hookRuns);
    });
  }
});

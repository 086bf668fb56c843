/**
 * An agent's own hooks, run by the engine: every scenario of the matrix (harness/scenarios.ts)
 * in the agent's native config, and the same config behind `dispatch --dialect <agent>`
 * ("native-file": the agent's config runs dispatch, the engine reads the agent's hooks, sends
 * them the agent's payload and reads their answers in the agent's format; docs/dialects.md,
 * "Hooks of another dialect run by the engine"). The engine must never let through what the
 * agent's own run of the same hook stopped, and never fail open. Results:
 * test/agents/dialect-diff/native-files.json.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCell, scenariosFor, type AgentAdapter, type Cell } from '../harness/agent.js';
import { ensureAgent, PINS } from '../harness/cache.js';
import { codex } from '../harness/codex.js';
import { copilot } from '../harness/copilot.js';
import { droid } from '../harness/droid.js';
import { gemini } from '../harness/gemini.js';
import { qwen } from '../harness/qwen.js';
import { namespaceUnavailable } from '../harness/run.js';
import { writeMergedResults } from './results.js';

const RESULTS = join(import.meta.dirname, 'native-files.json');
const AGENTS: AgentAdapter[] = [codex, copilot, droid, gemini, qwen];

/** Verdicts under which the hook's decision took effect, or the engine refused in its place. */
const STOPPED = new Set(['honoured', 'closed']);

/**
 * Cells where the hook's answer is no answer in its agent's own format, so the agent ignores it
 * and so does the engine reading that agent's file: what the hook meant to stop goes through in
 * both runs. Each must still be open natively (else the entry is stale).
 */
const NO_ANSWER_IN_ITS_FORMAT: Record<string, string> = {
  'gemini replace-output':
    "Gemini CLI has no tool-output field: hook.mjs's `hookSpecificOutput.tool_output` is ignored by Gemini and by the engine reading Gemini's file (an AfterTool deny is Gemini's way)",
};

const results: Record<string, { version: string; cells: Record<string, { native: Cell; nativeFile: Cell }> }> = {};
const why: string | null = namespaceUnavailable();

describe.concurrent("the agents' own hook files, run by the engine under dispatch", () => {
  afterAll(() => writeMergedResults(RESULTS, why, results));

  for (const adapter of AGENTS) {
    const name = adapter.name;
    for (const scenario of scenariosFor(name)) {
      if (scenario.brokenInstall) continue; // about a broken agent-hooks install, not a hook file
      it(`${name} ${scenario.id}`, async (ctx) => {
        if (why) ctx.skip(`not runnable here: ${why}`);
        const bin = ensureAgent(name);
        const native = await runCell(adapter, bin, scenario, 'native');
        if (native.verdict === 'na') ctx.skip(native.detail);
        const nativeFile = await runCell(adapter, bin, scenario, 'native-file');
        const agent = results[name] ?? { version: PINS[name].version, cells: {} };
        results[name] = agent;
        agent.cells[scenario.id] = {
          native: { verdict: native.verdict, detail: native.detail },
          nativeFile: { verdict: nativeFile.verdict, detail: nativeFile.detail },
        };
        const known = NO_ANSWER_IN_ITS_FORMAT[`${name} ${scenario.id}`];
        if (known) expect(native.verdict, `stale entry: ${known}`).toBe('open');
        else
          expect(
            nativeFile.verdict,
            `${name} ${scenario.id}, native file under dispatch: ${nativeFile.detail}\n${nativeFile.log ?? ''}`,
          ).not.toBe('open');
        expect(nativeFile.verdict, `${name} ${scenario.id}: ${nativeFile.detail}\n${nativeFile.log ?? ''}`).not.toBe('error');
        // What the agent's own run of the hook stopped, the engine stops (or refuses) too.
        if (STOPPED.has(native.verdict) && /deny|block|guard|ask/.test(scenario.id))
          expect(
            STOPPED.has(nativeFile.verdict),
            `${name} ${scenario.id}: natively ${native.verdict}, under dispatch ${nativeFile.verdict}`,
          ).toBe(true);
      });
    }
  }
});

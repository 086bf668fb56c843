/**
 * Declares one agent's matrix as vitest tests: each scenario × {native, dispatch} is one
 * concurrent test (the config caps concurrency). A dispatch cell that fails open fails its
 * test; every other verdict is recorded. The agent's results file is written after the last cell.
 * A dispatch cell in known-open.json is one no answer can close (the agent never uses it): it is
 * expected to fail open, stays FAILS OPEN in the tables, and its test fails the day it does not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAgent, PINS, type AgentName } from './cache.js';
import { runCell, scenariosFor, writeResults, type AgentAdapter, type AgentResults, type Mode } from './agent.js';
import { namespaceUnavailable } from './run.js';
import { readFileSync } from 'node:fs';

const KNOWN_OPEN: Record<string, { version: string; what: string }> = JSON.parse(
  readFileSync(new URL('../known-open.json', import.meta.url), 'utf8'),
);

/** `scenarios`: run only these (a slow agent's reduced matrix); `sequential`: one cell at a time. */
export interface MatrixOptions {
  scenarios?: readonly string[];
  sequential?: boolean;
}

export function agentMatrix(adapter: AgentAdapter, notRunnable?: () => string | null, opts: MatrixOptions = {}): void {
  const name: AgentName = adapter.name;
  const results: AgentResults = { agent: name, version: PINS[name].version, notRunnable: null, cells: {} };
  let bin = '';
  let why: string | null = namespaceUnavailable() ?? notRunnable?.() ?? null;

  (opts.sequential ? describe.sequential : describe.concurrent)(`${name} ${PINS[name].version}`, () => {
    beforeAll(() => {
      if (why) return;
      try {
        bin = ensureAgent(name);
      } catch (err) {
        why = `install failed: ${String((err as Error).message).slice(0, 300)}`;
      }
    }, 660_000);

    afterAll(() => {
      results.notRunnable = why;
      if (why) {
        console.warn(`\n*** ${name}: not runnable here: ${why}\n`);
        results.cells = {};
      }
      writeResults(results);
    });

    for (const scenario of scenariosFor(name).filter((s) => !opts.scenarios || opts.scenarios.includes(s.id))) {
      for (const mode of ['native', 'dispatch'] as Mode[]) {
        it(`${scenario.id} ${mode}`, async (ctx) => {
          if (why) ctx.skip(`not runnable here: ${why}`);
          const cell = await runCell(adapter, bin, scenario, mode);
          const cells = results.cells[scenario.id] ?? {};
          results.cells[scenario.id] = cells;
          cells[mode] = { verdict: cell.verdict, detail: cell.detail };
          if (cell.verdict === 'error' || cell.verdict === 'open')
            console.log(`[${name} ${scenario.id} ${mode}] ${cell.verdict}: ${cell.detail}\n${cell.log ?? ''}`);
          const known = KNOWN_OPEN[`${name}:${scenario.id}`];
          if (mode === 'dispatch' && known)
            expect(cell.verdict, `${scenario.id}: known open (${known.what}); no longer? remove it`).toBe('open');
          else if (mode === 'dispatch') expect(cell.verdict, `${scenario.id} under dispatch: ${cell.detail}`).not.toBe('open');
        });
      }
    }
  });
}

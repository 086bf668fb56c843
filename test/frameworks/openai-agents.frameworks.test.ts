/**
 * OpenAI Agents SDK: the SDK's own Runner and OpenAIProvider (Chat Completions: the fake model answers the Responses API only as a stream) pointed at the fake
 * model on loopback, a `bash` function tool; ask = needsApproval, answered through
 * `result.interruptions` and `state.approve()` / `state.reject()`. Tracing is off (it would
 * export to the network). Each scenario runs with the SDK alone (native) and with withAgentHooks.
 */
process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';
const { Agent, InputGuardrailTripwireTriggered, OpenAIProvider, Runner, setTracingDisabled, tool } = await import('@openai/agents');
setTracingDisabled(true);
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { REPO_ROOT } from '../agents/harness/run.js';
import { afterAll, describe, it } from 'vitest';
import { z } from 'zod';
import { withAgentHooks } from '../../src/frameworks/openai-agents.js';
import {
  type Cell,
  engineFor,
  FW_SCENARIOS,
  type FwScenario,
  fwDirs,
  judgeBothWays,
  observe,
  runShell,
  startModel,
  type ResultsFor,
  writeResults,
} from './harness.js';

const VERSION: string = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules/@openai/agents/package.json'), 'utf8')).version;
// What the SDK cannot express (docs/frameworks.md): no cell is run for these.
const STOP_NA = 'the SDK has no loop end a hook can continue from, so Stop is not fired';
const PROMPT_CONTEXT_NA = 'an input guardrail cannot add to the input, so UserPromptSubmit context is not delivered';
const SCENARIOS = FW_SCENARIOS.filter((s) => s.id !== 'stop-keep-going');

async function runAgent(s: FwScenario, withAdapter: boolean) {
  const dirs = fwDirs(`openai-agents-${s.id}`);
  const model = await startModel(dirs, 'chat', s.command ? [{ name: 'bash', input: { command: s.command } }] : []);
  const engine = await engineFor(dirs, s);
  try {
    const bash = tool({
      name: 'bash',
      description: 'Run a shell command',
      parameters: z.object({ command: z.string() }),
      execute: async ({ command }) => runShell(command, dirs),
    });
    const base = new Agent({ name: 'assistant', instructions: 'Use the tools.', model: 'fake-model', tools: [bash] });
    const agent = withAdapter ? withAgentHooks(engine, base, { cwd: dirs.work }) : base;
    const client = new OpenAI({ apiKey: 'sk-fake', baseURL: `${model.url}/v1`, maxRetries: 0 });
    const runner = new Runner({ modelProvider: new OpenAIProvider({ openAIClient: client, useResponses: false }), tracingDisabled: true });
    let asked = false;
    let final: string;
    try {
      let result = await runner.run(agent, s.prompt);
      while (result.interruptions?.length) {
        asked = true;
        for (const item of result.interruptions) s.answer === 'approve' ? result.state.approve(item) : result.state.reject(item);
        result = await runner.run(agent, result.state);
      }
      final = String(result.finalOutput ?? '');
    } catch (err) {
      if (!(err instanceof InputGuardrailTripwireTriggered)) throw err;
      final = `blocked: ${(err.result.output.outputInfo as { reason?: string }).reason}`;
    }
    return observe(dirs, model, final, asked);
  } finally {
    await model.close();
    await engine.close();
  }
}

const RESULTS: ResultsFor = {
  name: 'openai-agents',
  title: 'OpenAI Agents SDK',
  packages: ['@openai/agents'],
  notExpressible: { 'stop-keep-going': STOP_NA, 'prompt-context': PROMPT_CONTEXT_NA },
};
const cells: Cell[] = [];
afterAll(() => writeResults(RESULTS, cells));

describe(`OpenAI Agents SDK ${VERSION}: withAgentHooks`, () => {
  for (const s of SCENARIOS) {
    it(`${s.id}: native and with the adapter`, async () => {
      await judgeBothWays(s, runAgent, cells);
    }, 60_000);
  }
});

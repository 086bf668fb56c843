/**
 * LangChain.js v1: `createAgent` with the real ChatOpenAI pointed at the fake model (Chat
 * Completions on loopback), a `bash` tool, and a MemorySaver checkpointer (ask = interrupt()).
 * Each scenario runs with the framework alone (native) and with agentHooksMiddleware.
 */
import { Command, MemorySaver } from '@langchain/langgraph';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent, tool } from 'langchain';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentHooksMiddleware } from '../../src/frameworks/langchain.js';
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

const VERSION = (await import('langchain/package.json', { with: { type: 'json' } })).default.version;
delete process.env.LANGCHAIN_TRACING_V2;
delete process.env.LANGSMITH_TRACING;

async function runAgent(s: FwScenario, withAdapter: boolean, checkpointer = true) {
  const dirs = fwDirs(`langchain-${s.id}`);
  const model = await startModel(dirs, 'chat', s.command ? [{ name: 'bash', input: { command: s.command } }] : []);
  const engine = await engineFor(dirs, s);
  try {
    const bash = tool(async ({ command }: { command: string }) => runShell(command, dirs), {
      name: 'bash',
      description: 'Run a shell command',
      schema: z.object({ command: z.string() }),
    });
    const llm = new ChatOpenAI({ model: 'fake-model', apiKey: 'sk-fake', configuration: { baseURL: `${model.url}/v1` }, maxRetries: 0 });
    const agent = createAgent({
      model: llm,
      tools: [bash],
      middleware: withAdapter ? [agentHooksMiddleware(engine, { cwd: dirs.work })] : [],
      ...(checkpointer ? { checkpointer: new MemorySaver() } : {}),
    });
    const config = { configurable: { thread_id: `t-${s.id}` } };
    let result = await agent.invoke({ messages: [{ role: 'user', content: s.prompt }] }, config);
    const asked = Boolean((result as { __interrupt__?: unknown[] }).__interrupt__?.length);
    if (asked) result = await agent.invoke(new Command({ resume: { decisions: [{ type: s.answer ?? 'reject' }] } }), config);
    const last = result.messages.at(-1);
    return observe(dirs, model, typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content), asked);
  } finally {
    await model.close();
    await engine.close();
  }
}

const RESULTS: ResultsFor = {
  name: 'langchain',
  title: 'LangChain.js',
  packages: ['langchain', '@langchain/langgraph', '@langchain/openai'],
};
const cells: Cell[] = [];
afterAll(() => writeResults(RESULTS, cells));

describe(`LangChain.js ${VERSION}: the agent-hooks middleware in createAgent`, () => {
  for (const s of FW_SCENARIOS) {
    it(`${s.id}: native and with the adapter`, async () => {
      await judgeBothWays(s, runAgent, cells);
    }, 60_000);
  }

  it('ask in an agent without a checkpointer (interrupt() cannot pause it): denied with the reason', async () => {
    const s = FW_SCENARIOS.find((x) => x.id === 'ask-approved')!;
    const o = await runAgent(s, true, false);
    expect(o.ran).toBe(false);
    expect(o.later).toContain('interrupt() needs a checkpointer');
    expect(o.later).toContain('ASK-REASON');
  }, 60_000);
});

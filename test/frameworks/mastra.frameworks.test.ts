/**
 * Mastra's own agent loop (`Agent.generate` with maxSteps) and the real OpenAI-compatible
 * provider, pointed at the fake model: every scenario native and through agent-hooks/mastra
 * (wrapped tools, the input processor, and Mastra's own tool approval: the agent is registered
 * in a Mastra instance with in-memory storage, which its suspend/approve cycle needs).
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { Mastra } from '@mastra/core';
import { Agent } from '@mastra/core/agent';
import { InMemoryStore } from '@mastra/core/storage';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import { mastraHooks } from '../../src/frameworks/mastra.js';
import { describe, expect, test } from 'vitest';
import { frameworkMatrix } from './harness/matrix.js';
import { type CellContext, type FrameworkDriver, runCell } from './harness/run.js';
import { SCENARIOS } from './harness/scenarios.js';

async function run(ctx: CellContext, approvalOption = true) {
  const provider = createOpenAICompatible({ name: 'fake', baseURL: ctx.baseURL, apiKey: 'fake-key' });
  const bash = createTool({
    id: 'bash',
    description: 'Run a shell command',
    inputSchema: z.object({ command: z.string() }),
    execute: async ({ command }) => ctx.shell(command),
  });
  const hooks = ctx.engine ? mastraHooks(ctx.engine, { cwd: ctx.work }) : undefined;
  const agent = new Agent({
    id: 'cell',
    name: 'cell',
    instructions: 'You run shell commands.',
    // Mastra's type names its own copy of the V4 model interface; the provider's model is one at run time.
    model: provider.chatModel('fake-model') as never,
    tools: hooks ? hooks.tools({ bash }) : { bash },
    ...(hooks ? { inputProcessors: [hooks.inputProcessor], outputProcessors: [hooks.outputProcessor], maxProcessorRetries: 3 } : {}),
  });
  new Mastra({ agents: { cell: agent }, storage: new InMemoryStore(), logger: false });
  const options = { maxSteps: 6, ...(hooks && approvalOption ? { requireToolApproval: hooks.requireToolApproval } : {}) };
  const result = await agent.generate(ctx.scenario.prompt, options);
  if (result.tripwire) throw new Error(`tripwire: ${JSON.stringify(result.tripwire)}`);
  if (result.finishReason !== 'suspended') return {};
  // A hook asked: the app answers Mastra's approval request.
  const answer = { runId: result.runId ?? '', toolCallId: (result.suspendPayload as { toolCallId: string }).toolCallId, maxSteps: 6 };
  await (ctx.scenario.approval === 'approve' ? agent.approveToolCallGenerate(answer) : agent.declineToolCallGenerate(answer));
  return { approvalRequested: true };
}

const driver = {
  name: 'mastra',
  title: 'Mastra',
  packages: ['@mastra/core', '@ai-sdk/openai-compatible'],
  api: 'chat',
  run: (ctx: CellContext) => run(ctx),
} as const satisfies FrameworkDriver;
frameworkMatrix(driver);

describe("Mastra's approval for a hook's ask, and its loop end", () => {
  const ask = (id: string) => SCENARIOS.find((s) => s.id === id)!;
  test('approved through requireToolApproval: the call runs; refused: it does not', async () => {
    expect((await runCell(driver, ask('ask-approved'), 'adapter')).verdict).toBe('honoured');
    expect((await runCell(driver, ask('ask-refused'), 'adapter')).verdict).toBe('honoured');
  });
  test("Stop keep-going: the output processor's retry gives the model the Stop hook's reason", async () => {
    expect((await runCell(driver, ask('stop-keep-going'), 'adapter')).verdict).toBe('honoured');
  });
  test('without requireToolApproval nobody can be asked: denied, and the model reads why', async () => {
    const result = await runCell({ ...driver, run: (ctx) => run(ctx, false) }, ask('ask-approved'), 'adapter');
    expect(result).toMatchObject({ verdict: 'closed', ran: [] });
  });
});

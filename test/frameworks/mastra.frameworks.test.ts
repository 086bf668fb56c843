/**
 * Mastra's own agent loop (`Agent.generate` with maxSteps) and the real OpenAI-compatible
 * provider, pointed at the fake model: every scenario native and through agent-hooks/mastra
 * (wrapped tools and the input processor).
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import { mastraHooks } from '../../src/frameworks/mastra.js';
import { frameworkMatrix } from './harness/matrix.js';
import type { CellContext } from './harness/run.js';

async function run(ctx: CellContext) {
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
    ...(hooks ? { inputProcessors: [hooks.inputProcessor] } : {}),
  });
  const result = await agent.generate(ctx.scenario.prompt, { maxSteps: 6 });
  if (result.tripwire) throw new Error(`tripwire: ${JSON.stringify(result.tripwire)}`);
  return {};
}

frameworkMatrix({
  name: 'mastra',
  title: 'Mastra',
  packages: ['@mastra/core', '@ai-sdk/openai-compatible'],
  api: 'chat',
  notExpressible: {
    'stop-keep-going': 'Mastra has no loop-end hook that can continue a finished run, so Stop is not fired',
  },
  run,
});

/**
 * The Vercel AI SDK's own tool loop (`generateText` with `stopWhen`) and its real
 * OpenAI-compatible provider, pointed at the fake model: every scenario native and through
 * agent-hooks/ai-sdk. An approval request is answered the SDK's way: the app appends a
 * `tool-approval-response` and calls generateText again with the same adapter instance.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, type ModelMessage, stepCountIs, type ToolSet, tool } from 'ai';
import { aiSdkHooks } from '../../src/frameworks/ai-sdk.js';
import { frameworkMatrix } from './harness/matrix.js';
import type { CellContext } from './harness/run.js';

async function run(ctx: CellContext) {
  const provider = createOpenAICompatible({ name: 'fake', baseURL: ctx.baseURL, apiKey: 'fake-key' });
  const bash = tool({
    description: 'Run a shell command',
    inputSchema: jsonSchema<{ command: string }>({
      type: 'object',
      properties: { command: { type: 'string' } },
      required: ['command'],
    }),
    execute: ({ command }) => ctx.shell(command),
  });
  const hooks = ctx.engine ? aiSdkHooks(ctx.engine, { cwd: ctx.work }) : undefined;
  const tools: ToolSet = hooks ? hooks.tools({ bash }) : { bash };
  const model = hooks ? hooks.model(provider.chatModel('fake-model')) : provider.chatModel('fake-model');
  const options = { model, tools, stopWhen: stepCountIs(6), ...(hooks ? { toolApproval: hooks.toolApproval } : {}) };
  const first = await generateText({ ...options, prompt: ctx.scenario.prompt });
  const requests = first.content.flatMap((p) => (p.type === 'tool-approval-request' && !p.isAutomatic ? [p] : []));
  if (requests.length === 0) return {};
  const approved = ctx.scenario.approval === 'approve';
  const messages: ModelMessage[] = [
    { role: 'user', content: ctx.scenario.prompt },
    ...first.response.messages,
    {
      role: 'tool',
      content: requests.map((r) => ({ type: 'tool-approval-response' as const, approvalId: r.approvalId, approved })),
    },
  ];
  await generateText({ ...options, messages });
  return { approvalRequested: true };
}

frameworkMatrix({
  name: 'ai-sdk',
  title: 'Vercel AI SDK',
  packages: ['ai', '@ai-sdk/openai-compatible'],
  api: 'chat',
  notExpressible: {
    'stop-keep-going':
      'generateText/streamText end when the model answers without a tool call; no callback can continue the loop, so Stop is not fired',
  },
  run,
});

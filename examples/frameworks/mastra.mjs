import { execSync } from 'node:child_process';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { createHookEngine } from 'agent-hooks';
import { mastraHooks } from 'agent-hooks/mastra';
import { z } from 'zod';

const engine = createHookEngine(); // or { hooks: (await loadConfig({ cwd })).hooks, projectDir: cwd }
engine.register({
  event: 'PreToolUse',
  matcher: 'Bash', // the app's `bash` tool is `Bash` to the hooks
  fn: ({ tool_input }) =>
    /\brm\b/.test(tool_input.command)
      ? { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm here' } }
      : undefined,
});
const hooks = mastraHooks(engine);
const bash = createTool({
  id: 'bash',
  description: 'Run a shell command',
  inputSchema: z.object({ command: z.string() }),
  execute: async ({ command }) => execSync(command, { encoding: 'utf8' }),
});
const agent = new Agent({
  id: 'helper',
  name: 'helper',
  instructions: 'You tidy folders.',
  model: createOpenAICompatible({ name: 'local', baseURL: process.env.MODEL_BASE_URL }).chatModel('any'),
  tools: hooks.tools({ bash }),
  inputProcessors: [hooks.inputProcessor],
});
const result = await agent.generate('Tidy up the folder.', { maxSteps: 5 });
console.log(result.toolResults.map((r) => r.payload.result)); // [ 'Tool call denied by a hook: no rm here' ]

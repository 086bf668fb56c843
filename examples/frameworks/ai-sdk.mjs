import { execSync } from 'node:child_process';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { createHookEngine } from 'agent-hooks';
import { aiSdkHooks } from 'agent-hooks/ai-sdk';

const engine = createHookEngine(); // or { hooks: (await loadConfig({ cwd })).hooks, projectDir: cwd }
engine.register({
  event: 'PreToolUse',
  matcher: 'Bash', // the app's `bash` tool is `Bash` to the hooks
  fn: ({ tool_input }) =>
    /\brm\b/.test(tool_input.command)
      ? { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm here' } }
      : undefined,
});
const hooks = aiSdkHooks(engine);
const bash = tool({
  description: 'Run a shell command',
  inputSchema: jsonSchema({ type: 'object', properties: { command: { type: 'string' } }, required: ['command'] }),
  execute: ({ command }) => execSync(command, { encoding: 'utf8' }),
});
const model = createOpenAICompatible({ name: 'local', baseURL: process.env.MODEL_BASE_URL }).chatModel('any');
const result = await generateText({
  model: hooks.model(model),
  tools: hooks.tools({ bash }),
  toolApproval: hooks.toolApproval,
  stopWhen: stepCountIs(5),
  prompt: 'Tidy up the folder.',
});
const denied = result.steps.flatMap((s) => s.content).filter((p) => p.type === 'tool-approval-response' && !p.approved);
console.log(denied.map((p) => p.reason)); // [ 'Tool call denied by a hook: no rm here' ]

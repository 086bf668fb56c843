import { execSync } from 'node:child_process';
import { Agent, run, setOpenAIAPI, tool } from '@openai/agents';
import { createHookEngine } from 'agent-hooks';
import { withAgentHooks } from 'agent-hooks/openai-agents';
import { z } from 'zod';

const engine = createHookEngine(); // or createHookEngine({ hooks: (await loadConfig({ cwd })).hooks })
engine.register({
  event: 'PreToolUse',
  matcher: 'Bash', // the `bash` tool, as Claude names it
  fn: ({ tool_input }) =>
    /\brm\b/.test(tool_input.command)
      ? { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm here' } }
      : undefined,
});
const bash = tool({
  name: 'bash',
  description: 'Run a shell command',
  parameters: z.object({ command: z.string() }),
  execute: ({ command }) => execSync(command, { encoding: 'utf8' }),
});
setOpenAIAPI('chat_completions'); // the Responses API (the default) works the same
const agent = withAgentHooks(engine, new Agent({ name: 'assistant', model: 'gpt-4.1-mini', tools: [bash] }));
const result = await run(agent, 'Tidy up the folder.');
console.log(result.newItems.filter((i) => i.type === 'tool_call_output_item').map((i) => i.output)); // [ 'Tool call denied by a hook: no rm here' ]

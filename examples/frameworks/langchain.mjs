import { execSync } from 'node:child_process';
import { ChatOpenAI } from '@langchain/openai';
import { createHookEngine } from 'agent-hooks';
import { agentHooksMiddleware } from 'agent-hooks/langchain';
import { createAgent, ToolMessage, tool } from 'langchain';
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
const bash = tool(({ command }) => execSync(command, { encoding: 'utf8' }), {
  name: 'bash',
  description: 'Run a shell command',
  schema: z.object({ command: z.string() }),
});
const agent = createAgent({ model: new ChatOpenAI({ model: 'gpt-4.1-mini' }), tools: [bash], middleware: [agentHooksMiddleware(engine)] });
const result = await agent.invoke({ messages: [{ role: 'user', content: 'Tidy up the folder.' }] });
console.log(result.messages.filter((m) => ToolMessage.isInstance(m)).map((m) => m.content)); // [ 'Tool call denied by a hook: no rm here' ]

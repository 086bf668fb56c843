// agent-hooks in a LangChain.js agent: the hooks judge every tool call (run by test/frameworks/examples.frameworks.test.ts).
import { execSync } from 'node:child_process';
import { ChatOpenAI } from '@langchain/openai';
import { createHookEngine } from 'agent-hooks';
import { agentHooksMiddleware } from 'agent-hooks/langchain';
import { createAgent, tool } from 'langchain';
import { z } from 'zod';

const engine = createHookEngine(); // or createHookEngine({ hooks: (await loadConfig({ cwd })).hooks })
engine.register({
  event: 'PreToolUse',
  matcher: 'Bash', // the `bash` tool, as Claude names it
  fn: ({ tool_input }) =>
    String(tool_input.command).includes('rm -rf')
      ? { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm -rf here' } }
      : undefined,
});
const bash = tool(({ command }) => execSync(command, { encoding: 'utf8' }), {
  name: 'bash',
  description: 'Run a shell command',
  schema: z.object({ command: z.string() }),
});
const agent = createAgent({ model: new ChatOpenAI({ model: 'gpt-4.1-mini' }), tools: [bash], middleware: [agentHooksMiddleware(engine)] });
const result = await agent.invoke({ messages: [{ role: 'user', content: 'Clean up the build folder.' }] });
console.log(result.messages.at(-1)?.content);

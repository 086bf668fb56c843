import { query } from '@anthropic-ai/claude-agent-sdk';
import { createHookEngine } from 'agent-hooks';
import { claudeAgentHooks } from 'agent-hooks/claude-agent-sdk';

const engine = createHookEngine(); // or createHookEngine({ hooks: (await loadConfig({ cwd })).hooks })
engine.register({
  event: 'PreToolUse',
  matcher: 'Bash',
  fn: ({ tool_input }) =>
    /\brm\b/.test(tool_input.command)
      ? { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm here' } }
      : undefined,
});
const options = { hooks: claudeAgentHooks(engine), allowedTools: ['Bash'], settingSources: [] };
for await (const message of query({ prompt: 'Tidy up the folder.', options })) {
  // The tool results the model read: a denied call's is the hook's reason.
  if (message.type === 'user' && Array.isArray(message.message.content))
    for (const part of message.message.content) if (part.type === 'tool_result') console.log(part.content); // no rm here
}
await engine.close();

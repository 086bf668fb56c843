// agent-hooks in a Claude Agent SDK app: the engine answers the SDK's hooks (run by test/frameworks/examples.frameworks.test.ts).
import { query } from '@anthropic-ai/claude-agent-sdk';
import { createHookEngine } from 'agent-hooks';
import { claudeAgentHooks } from 'agent-hooks/claude-agent-sdk';

const engine = createHookEngine(); // or createHookEngine({ hooks: (await loadConfig({ cwd })).hooks })
engine.register({
  event: 'PreToolUse',
  matcher: 'Bash',
  fn: ({ tool_input }) =>
    String(tool_input.command).includes('rm -rf')
      ? { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm -rf here' } }
      : undefined,
});
const options = { hooks: claudeAgentHooks(engine), allowedTools: ['Bash'], settingSources: [] };
for await (const message of query({ prompt: 'Clean up the build folder.', options })) {
  if (message.type === 'result') console.log(message.subtype === 'success' ? message.result : message.subtype);
}
await engine.close();

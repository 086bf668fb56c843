import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createHookEngine } from 'agent-hooks';
import { hookMcpClient } from 'agent-hooks/mcp-client';

const engine = createHookEngine(); // or { hooks: (await loadConfig({ cwd })).hooks, projectDir: cwd }
engine.register({
  event: 'PreToolUse',
  matcher: 'mcp__files__.*', // tools of the server named `files`
  fn: ({ tool_input }) =>
    /\brm\b/.test(tool_input.command)
      ? { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm here' } }
      : undefined,
});
const client = new Client({ name: 'my-app', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [process.env.MCP_SERVER] }));
hookMcpClient(engine, client, { server: 'files', ask: async () => false }); // ask: your approval UI
// What your model asked for, called on its behalf:
const result = await client.callTool({ name: 'bash', arguments: { command: 'rm -f keep.txt' } });
console.log(result.content[0].text); // Tool call denied by a hook: no rm here
await client.close();

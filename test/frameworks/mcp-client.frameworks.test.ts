/**
 * The MCP TypeScript SDK's real Client and McpServer (over the SDK's in-memory transport), with a
 * `bash` tool on the server, driven by the smallest app loop over the fake model's Chat
 * Completions API (MCP has no agent loop of its own): every scenario native and with
 * agent-hooks/mcp-client around `client.callTool`. The app's `ask` callback stands for its UI.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { hookMcpClient } from '../../src/frameworks/mcp-client.js';
import { frameworkMatrix } from './harness/matrix.js';
import type { CellContext } from './harness/run.js';

interface ChatMessage {
  role: string;
  content: string | null;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

async function run(ctx: CellContext) {
  const server = new McpServer({ name: 'work', version: '1.0.0' });
  server.registerTool('bash', { description: 'Run a shell command', inputSchema: { command: z.string() } }, async ({ command }) => ({
    content: [{ type: 'text', text: await ctx.shell(command) }],
  }));
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'app', version: '1.0.0' });
  await client.connect(clientSide);
  let asked = false;
  if (ctx.engine) {
    hookMcpClient(ctx.engine, client, {
      server: 'work',
      cwd: ctx.work,
      toolNames: { mcp__work__bash: 'Bash' },
      ask: async () => {
        asked = true;
        return ctx.scenario.approval === 'approve';
      },
    });
  }
  try {
    const { tools } = await client.listTools();
    const offered = tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.inputSchema },
    }));
    const messages: ChatMessage[] = [{ role: 'user', content: ctx.scenario.prompt }];
    for (let step = 0; step < 6; step++) {
      const res = await fetch(`${ctx.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'fake-model', messages, tools: offered }),
      });
      const message = ((await res.json()) as { choices: Array<{ message: ChatMessage }> }).choices[0]!.message;
      messages.push(message);
      if (!message.tool_calls?.length) break;
      for (const call of message.tool_calls) {
        const result = await client.callTool({ name: call.function.name, arguments: JSON.parse(call.function.arguments) });
        const text = (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? JSON.stringify(c)).join('\n');
        messages.push({ role: 'tool', tool_call_id: call.id, content: text });
      }
    }
  } finally {
    await client.close();
    await server.close();
  }
  return { approvalRequested: asked };
}

const NO_PROMPT = 'an MCP client has no prompt: the app fires UserPromptSubmit in its own loop';
frameworkMatrix({
  name: 'mcp-client',
  title: 'MCP TypeScript SDK (client)',
  packages: ['@modelcontextprotocol/sdk'],
  api: 'chat',
  notExpressible: {
    'prompt-block': NO_PROMPT,
    'prompt-context': NO_PROMPT,
    'stop-keep-going': 'an MCP client has no loop end: the app fires Stop in its own loop',
  },
  run,
});

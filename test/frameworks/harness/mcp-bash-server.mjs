// A stdio MCP server with one `bash` tool (runs the command with sh in its cwd), for the
// mcp-client example (examples/frameworks/mcp-client.mjs, run by examples.frameworks.test.ts).
import { execFileSync } from 'node:child_process';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'files', version: '1.0.0' });
server.registerTool('bash', { description: 'Run a shell command', inputSchema: { command: z.string() } }, async ({ command }) => ({
  content: [{ type: 'text', text: execFileSync('sh', ['-c', command], { encoding: 'utf8' }) }],
}));
await server.connect(new StdioServerTransport());

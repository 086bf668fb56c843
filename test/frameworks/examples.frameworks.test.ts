/**
 * The examples of docs/frameworks.md (examples/frameworks/<framework>.mjs, included in the doc by
 * scripts/gen-frameworks-doc.mjs) run as written: `node` on the file, the fake model's base URL
 * in MODEL_BASE_URL, a model that asks to `rm` a file, and the example's guard must deny it.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';
import { tempDir } from '../helpers/tmp.js';
// @ts-expect-error plain JavaScript module shared with the agents suite
import { startFakeModel } from '../agents/harness/fake-model.mjs';

const run = promisify(execFile);
const EXAMPLES = fileURLToPath(new URL('../../examples/frameworks/', import.meta.url));
/** Example → the fake model's wire API and the model's tool call. */
const CASES: Record<string, { api: string; call: { name: string; input: Record<string, unknown> } }> = {
  'ai-sdk': { api: 'chat', call: { name: 'bash', input: { command: 'rm -f keep.txt' } } },
  // MCP has no model of its own: the example calls the tool as the app would for its model (the fake model idles).
  'mcp-client': { api: 'chat', call: { name: 'bash', input: { command: 'rm -f keep.txt' } } },
  mastra: { api: 'chat', call: { name: 'bash', input: { command: 'rm -f keep.txt' } } },
};
/** A stdio MCP server with a `bash` tool, for the mcp-client example. */
const MCP_SERVER = fileURLToPath(new URL('./harness/mcp-bash-server.mjs', import.meta.url));

const tmp = tempDir();
afterAll(() => tmp.cleanup());

test.each(Object.keys(CASES))('examples/frameworks/%s.mjs runs as written and its guard denies', async (name) => {
  const { api, call } = CASES[name]!;
  const work = join(tmp.root, name);
  tmp.write(`${name}/keep.txt`, 'keep');
  const logFile = join(tmp.root, `${name}.jsonl`);
  writeFileSync(logFile, '');
  const server: Server = await startFakeModel({ api, script: { toolCalls: [call] }, logFile, port: 0 });
  try {
    const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    // Asynchronously: the fake model answers from this process.
    const { stdout } = await run(process.execPath, [join(EXAMPLES, `${name}.mjs`)], {
      cwd: work,
      env: { ...process.env, MODEL_BASE_URL: baseURL, MCP_SERVER },
    });
    expect(stdout).toContain('no rm here');
    expect(existsSync(join(work, 'keep.txt'))).toBe(true);
  } finally {
    await new Promise((r) => server.close(r));
  }
});

test('docs/frameworks.md holds these examples and the results table as generated', () => {
  const r = spawnSync(process.execPath, [fileURLToPath(new URL('../../scripts/gen-frameworks-doc.mjs', import.meta.url)), '--check'], {
    encoding: 'utf8',
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
});

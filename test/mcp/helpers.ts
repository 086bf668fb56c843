/** Shared bits of the MCP tests: the fixture server and process bookkeeping. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isPidLive, liveGroupMembers, waitUntil } from '../backends/helpers.js';
import type { McpServerConfig } from '../../src/mcp/index.js';

export const SERVER = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'mcp', 'server.mjs');

export function fixtureServer(extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return { command: process.execPath, args: [SERVER], ...extra };
}

/** Every pid and group the tests saw; afterAll kills what is left and reports it. */
export function pidBook() {
  const groups = new Set<number>();
  const pids = new Set<number>();
  return {
    groups,
    pids,
    async leftovers(): Promise<number[]> {
      const left: number[] = [];
      for (const g of groups) if (!(await waitUntil(() => liveGroupMembers(g).length === 0, 2000))) left.push(...liveGroupMembers(g));
      for (const p of pids) if (!(await waitUntil(() => !isPidLive(p), 2000))) left.push(p);
      for (const p of left) {
        try {
          process.kill(p, 'SIGKILL');
        } catch {
          // gone
        }
      }
      groups.clear();
      pids.clear();
      return left;
    },
  };
}

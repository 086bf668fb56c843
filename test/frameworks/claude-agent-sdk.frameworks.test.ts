/**
 * Claude Agent SDK: the SDK's own `query()` spawning the real Claude Code CLI (the agents suite's
 * cached 2.1.328, through pathToClaudeCodeExecutable) against the fake model (Anthropic Messages),
 * the whole run inside a loopback-only network namespace (claude-sdk-run.mjs). `ask` is the CLI's:
 * it asks the app's canUseTool. Each scenario runs with the SDK alone (native) and with
 * claudeAgentHooks. Needs root (unshare) and the built dist/.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureAgent } from '../agents/harness/cache.js';
import { claudeEnv } from '../agents/harness/claude.js';
import { namespaceUnavailable, REPO_ROOT, runInNamespace } from '../agents/harness/run.js';
import {
  type Cell,
  FW_SCENARIOS,
  type FwScenario,
  fwDirs,
  judgeBothWays,
  type Observed,
  prepareHooks,
  SECRET,
  type ResultsFor,
  writeResults,
} from './harness.js';

const VERSION: string = JSON.parse(
  readFileSync(join(REPO_ROOT, 'node_modules/@anthropic-ai/claude-agent-sdk/package.json'), 'utf8'),
).version;
const RUNNER = join(import.meta.dirname, 'claude-sdk-run.mjs');
const skip = namespaceUnavailable() ?? (existsSync(join(REPO_ROOT, 'dist', 'frameworks')) ? null : 'dist/ not built (npm run build)');

async function runAgent(s: FwScenario, withAdapter: boolean, noCanUseTool = false): Promise<Observed> {
  const dirs = fwDirs(`claude-sdk-${s.id}`);
  const source = await prepareHooks(dirs, s);
  const resultFile = join(dirs.root, 'sdk-result.json');
  const specFile = join(dirs.root, 'sdk-spec.json');
  const cli = ensureAgent('claude');
  writeFileSync(
    specFile,
    JSON.stringify({ ...dirs, source, cli, prompt: s.prompt, answer: s.answer, withAdapter, noCanUseTool, resultFile }),
  );
  const outcome = await runInNamespace(dirs, {
    command: process.execPath,
    args: [RUNNER, specFile],
    env: claudeEnv(dirs),
    api: 'anthropic',
    script: { toolCalls: s.command ? [{ name: 'Bash', input: { command: s.command, description: 'run it' } }] : [] },
    timeoutMs: 120_000,
  });
  if (!existsSync(resultFile)) throw new Error(`the SDK run wrote no result: ${outcome.stderr.slice(-2000)}`);
  const result = JSON.parse(readFileSync(resultFile, 'utf8')) as { final: string; error: string; asked: boolean };
  const all = outcome.requests.filter((r) => r.method === 'POST').map((r) => JSON.stringify(r.body));
  return {
    ran: existsSync(join(dirs.work, 'ran-marker')),
    rewritten: existsSync(join(dirs.work, 'rewritten-marker')),
    later: all.slice(1).join('\n'),
    all,
    final: `${result.final}${result.error ? ` (error: ${result.error.slice(0, 300)})` : ''}`,
    asked: result.asked,
  };
}

const RESULTS: ResultsFor = { name: 'claude-agent-sdk', title: 'Claude Agent SDK', packages: ['@anthropic-ai/claude-agent-sdk'] };
const cells: Cell[] = [];
afterAll(() => {
  if (cells.length) writeResults(RESULTS, cells);
});

describe.skipIf(skip)(`Claude Agent SDK ${VERSION}: claudeAgentHooks`, () => {
  for (const s of FW_SCENARIOS) {
    it(`${s.id}: native and with the adapter`, async () => {
      const adapted = await judgeBothWays(s, runAgent, cells);
      expect(adapted.later.includes(SECRET) && s.id === 'replace-output', 'the secret reached the model').toBe(false);
    }, 300_000);
  }

  it('ask in an app without canUseTool: the CLI has no one to ask, and the call is not run', async () => {
    const o = await runAgent(FW_SCENARIOS.find((x) => x.id === 'ask-approved')!, true, true);
    expect(o.ran, o.final).toBe(false);
  }, 300_000);
});

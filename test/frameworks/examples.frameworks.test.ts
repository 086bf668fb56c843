/**
 * The acceptance trial of the framework examples: each example of README's "Library API" section
 * and of docs/frameworks.md, taken from the docs verbatim, pasted into a fresh project that
 * installs the packed tarball (`npm pack`) and the frameworks at the versions this checkout pins,
 * then run with `node` against the fake model on loopback. The model asks to `rm -f keep.txt`; the
 * example's guard must deny it: the file stays and the example prints the guard's reason.
 * The installs share one npm cache (node_modules/.cache/agent-hooks-frameworks-npm), so a second
 * run reads the registry only for what changed. The Claude Agent SDK example runs in a
 * loopback-only namespace (its CLI is a separate program).
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tempDir } from '../helpers/tmp.js';
// @ts-expect-error plain JavaScript module shared with the agents suite
import { startFakeModel } from '../agents/harness/fake-model.mjs';
import { claudeEnv } from '../agents/harness/claude.js';
import { namespaceUnavailable, REPO_ROOT, runInNamespace } from '../agents/harness/run.js';
import { fwDirs } from './harness.js';
import { installedVersion } from './harness/matrix.js';

const run = promisify(execFile);
const CACHE = join(REPO_ROOT, 'node_modules', '.cache', 'agent-hooks-frameworks-npm');
/** A stdio MCP server with a `bash` tool, for the mcp-client example. */
const MCP_SERVER = fileURLToPath(new URL('./harness/mcp-bash-server.mjs', import.meta.url));
/** What each example's framework needs in the fresh project, at the versions installed here. */
const PACKAGES: Record<string, string[]> = {
  'ai-sdk': ['ai', '@ai-sdk/openai-compatible'],
  'mcp-client': ['@modelcontextprotocol/sdk'],
  mastra: ['@mastra/core', '@ai-sdk/openai-compatible'],
  langchain: ['langchain', '@langchain/core', '@langchain/langgraph', '@langchain/openai'],
  'openai-agents': ['@openai/agents'],
  'claude-agent-sdk': ['@anthropic-ai/claude-agent-sdk'],
};
const COMMAND = 'rm -f keep.txt';

/** The ```js blocks of `text` that import an adapter entry (`agent-hooks/<framework>`), with that framework. */
function examplesIn(text: string, where: string): Array<{ where: string; framework: string; code: string }> {
  const out = [];
  for (const m of text.matchAll(/```js\n([\s\S]*?)```/g)) {
    const code = m[1]!;
    const framework = /from 'agent-hooks\/([a-z-]+)'/.exec(code)?.[1];
    if (framework) out.push({ where, framework, code });
  }
  return out;
}

const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const libraryApi = readme.slice(readme.indexOf('## Library API'), readme.indexOf('\n## ', readme.indexOf('## Library API') + 1));
const EXAMPLES = [
  ...examplesIn(libraryApi, 'README.md'),
  ...examplesIn(readFileSync(join(REPO_ROOT, 'docs', 'frameworks.md'), 'utf8'), 'docs/frameworks.md'),
];

const tmp = tempDir('agent-hooks-fw-trial-');
const project = tmp.path('app');
// A fresh project's node_modules (the Claude Agent SDK's CLI alone is ~350 MB) takes a while to delete on a busy machine.
afterAll(() => tmp.cleanup(), 300_000);

beforeAll(async () => {
  if (!existsSync(join(REPO_ROOT, 'dist/index.js'))) throw new Error('dist/ is missing: npm run test:frameworks builds it first');
  // dist/ is built already; --ignore-scripts keeps npm pack from building it a second time.
  const packed = JSON.parse(
    (await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp.root], { cwd: REPO_ROOT })).stdout,
  ) as Array<{ filename: string }>;
  tmp.write('app/package.json', JSON.stringify({ name: 'fresh-app', private: true, type: 'module' }));
  const pins = [...new Set(Object.values(PACKAGES).flat().concat('zod'))].map((p) => `${p}@${installedVersion(p)}`);
  await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--cache', CACHE, join(tmp.root, packed[0]!.filename), ...pins],
    { cwd: project, maxBuffer: 16 * 1024 * 1024 },
  );
}, 600_000);

test('README\'s "Library API" and docs/frameworks.md hold an example for every adapter', () => {
  expect(EXAMPLES.filter((e) => e.where === 'README.md').length).toBeGreaterThan(0);
  expect(new Set(EXAMPLES.filter((e) => e.where === 'docs/frameworks.md').map((e) => e.framework))).toEqual(new Set(Object.keys(PACKAGES)));
});

describe('each example, pasted into a fresh project with the packed tarball, shows the guard deny', () => {
  for (const [i, { where, framework, code }] of EXAMPLES.entries()) {
    const name = `${where}: the ${framework} example`;
    if (framework === 'claude-agent-sdk') {
      test.skipIf(namespaceUnavailable())(
        name,
        async () => {
          const file = join(project, `example-${i}.mjs`);
          writeFileSync(file, code);
          const dirs = fwDirs(`trial-${framework}-${i}`);
          writeFileSync(join(dirs.work, 'keep.txt'), 'keep');
          const outcome = await runInNamespace(dirs, {
            command: process.execPath,
            args: [file],
            env: claudeEnv(dirs),
            api: 'anthropic',
            script: { toolCalls: [{ name: 'Bash', input: { command: COMMAND, description: 'tidy up' } }] },
            timeoutMs: 120_000,
          });
          expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0);
          expect(outcome.stdout).toContain('no rm here');
          expect(existsSync(join(dirs.work, 'keep.txt'))).toBe(true);
        },
        180_000,
      );
      continue;
    }
    test(name, async () => {
      const file = join(project, `example-${i}.mjs`);
      writeFileSync(file, code);
      const work = tmp.path(`work-${i}`);
      tmp.write(`work-${i}/keep.txt`, 'keep');
      const logFile = tmp.path(`model-${i}.jsonl`);
      const call = { name: 'bash', input: { command: COMMAND } };
      // MCP has no model: its example calls the tool as an app would for its model (the fake model idles).
      const server: Server = await startFakeModel({ api: 'chat', script: { toolCalls: [call] }, logFile, port: 0 });
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
        const env = {
          PATH: process.env.PATH ?? '',
          HOME: tmp.root,
          MODEL_BASE_URL: url,
          OPENAI_BASE_URL: url,
          OPENAI_API_KEY: 'sk-fake',
          OPENAI_AGENTS_DISABLE_TRACING: '1',
          MCP_SERVER,
        };
        // Asynchronously: the fake model answers from this process.
        const { stdout } = await run(process.execPath, [file], { cwd: work, env });
        expect(stdout).toContain('no rm here');
        expect(existsSync(join(work, 'keep.txt'))).toBe(true);
      } finally {
        await new Promise((r) => server.close(r));
      }
    }, 60_000);
  }
});

test('docs/frameworks.md holds the examples and the results table as generated', () => {
  const gen = join(REPO_ROOT, 'scripts', 'gen-frameworks-doc.mjs');
  const r = spawnSync(process.execPath, [gen, '--check'], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
});

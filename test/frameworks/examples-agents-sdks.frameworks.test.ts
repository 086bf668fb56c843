/**
 * The docs' examples (examples/frameworks/*.ts) run as written: each is compiled (types
 * stripped by esbuild) next to this file, so `agent-hooks` resolves to this package's dist/, and
 * run by Node against the fake model, the provider's base URL from its environment variable. The
 * model asks for `rm -rf build`; the example's guard must deny it, and the model must read why.
 * The Claude Agent SDK example runs in a loopback-only namespace (its CLI is a separate program).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { claudeEnv } from '../agents/harness/claude.js';
import { baseEnv, namespaceUnavailable, REPO_ROOT, runInNamespace } from '../agents/harness/run.js';
import { fwDirs, startModel } from './harness.js';

const OUT = join(import.meta.dirname, '.examples');
const COMMAND = 'rm -rf build; touch ran-marker';
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

async function compile(name: string): Promise<string> {
  mkdirSync(OUT, { recursive: true });
  const src = readFileSync(join(REPO_ROOT, 'examples', 'frameworks', `${name}.ts`), 'utf8');
  const file = join(OUT, `${name}.mjs`);
  writeFileSync(file, (await transform(src, { loader: 'ts', format: 'esm', target: 'node20' })).code);
  return file;
}

function runNode(file: string, cwd: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, [file], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('framework examples', () => {
  for (const [name, urlVar] of [
    ['langchain', 'OPENAI_BASE_URL'],
    ['openai-agents', 'OPENAI_BASE_URL'],
  ] as const) {
    it(`examples/frameworks/${name}.ts denies rm -rf`, async () => {
      const dirs = fwDirs(`example-${name}`);
      const model = await startModel(dirs, 'chat', [{ name: 'bash', input: { command: COMMAND } }]);
      try {
        const env = baseEnv(dirs, { [urlVar]: `${model.url}/v1`, OPENAI_API_KEY: 'sk-fake', OPENAI_AGENTS_DISABLE_TRACING: '1' });
        const { code, out } = await runNode(await compile(name), dirs.work, env);
        expect(code, out).toBe(0);
        expect(existsSync(join(dirs.work, 'ran-marker'))).toBe(false);
        expect(
          model
            .requests()
            .slice(1)
            .map((b) => JSON.stringify(b))
            .join('\n'),
        ).toContain('no rm -rf here');
      } finally {
        await model.close();
      }
    }, 60_000);
  }

  it.skipIf(namespaceUnavailable())(
    'examples/frameworks/claude-agent-sdk.ts denies rm -rf',
    async () => {
      const dirs = fwDirs('example-claude-agent-sdk');
      const outcome = await runInNamespace(dirs, {
        command: process.execPath,
        args: [await compile('claude-agent-sdk')],
        env: claudeEnv(dirs),
        api: 'anthropic',
        script: { toolCalls: [{ name: 'Bash', input: { command: COMMAND, description: 'clean up' } }] },
        timeoutMs: 120_000,
      });
      expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0);
      expect(existsSync(join(dirs.work, 'ran-marker'))).toBe(false);
      expect(outcome.requests.map((r) => JSON.stringify(r.body)).join('\n')).toContain('no rm -rf here');
    },
    180_000,
  );
});

/** `agent-hooks run` with HTTP hooks: the CLI passes the settings' allowlists to the engine. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { CLI, requireBuiltCli } from '../helpers/cli.js';
import { useTempDir } from '../helpers/tmp.js';
import { sendJson, startServer, type TestServer } from './http-servers.js';

// Async: the loopback server lives in this process and must keep answering while the CLI runs.
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

requireBuiltCli();
const dir = useTempDir();
let server: TestServer;
beforeAll(async () => {
  server = await startServer((_req, res) =>
    sendJson(res, 200, {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'from cli http' },
    }),
  );
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const hook = () => ({ type: 'http', url: `${server.origin}/hook`, allowedHosts: ['127.0.0.1'] });
const run = (settings: string) =>
  cli(['run', 'PreToolUse', '--settings', settings, '--cwd', dir.root, '--tool', 'Bash', '--input', '{"command":"ls"}', '--json']);

describe('agent-hooks run with HTTP hooks', () => {
  it('runs an HTTP hook (exit 2 when it denies)', async () => {
    const r = await run(dir.json('s.json', { hooks: { PreToolUse: [{ hooks: [hook()] }] } }));
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ blocked: true, decision: 'deny', reason: 'from cli http' });
    expect(server.requests).toHaveLength(1);
  });

  it('honours allowedHttpHookUrls from the settings', async () => {
    const r = await run(
      dir.json('s.json', { allowedHttpHookUrls: ['https://hooks.example.com/*'], hooks: { PreToolUse: [{ hooks: [hook()] }] } }),
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { hooks: Array<{ error?: string }> };
    expect(out.hooks[0]!.error).toMatch(/does not match allowedHttpHookUrls/);
    expect(server.requests).toHaveLength(0);
  });

  it('check warns about the allowedHosts opt-out and no longer calls http a type without backend', async () => {
    const file = dir.json('settings.json', { hooks: { PreToolUse: [{ hooks: [hook(), { type: 'prompt', prompt: 'x' }] }] } });
    const r = await cli(['check', file]);
    expect(r.stdout).toMatch(/allowedHosts \(127\.0\.0\.1\) lifts the https requirement AND/);
    expect(r.stdout).not.toMatch(/hook type "(http|prompt)" has no backend/);
  });
});

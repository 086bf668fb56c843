/**
 * `agentHooks.builtinHooks` in a settings file: validated (with "did you mean"), honoured where
 * the user or the admin set it (not a repository), and switched on for every way an engine is
 * built from settings — `run`, `dispatch` (its no-hooks fast path included) and the session
 * manager — against a loopback model that finds a defect in any change calling eval.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { createHookManager } from '../../src/session/manager.js';
import { CLI_BIN, requireBuiltCli } from '../helpers/cli.js';
import { useReviewModel } from '../helpers/review-model.js';
import { useTempDir } from '../helpers/tmp.js';

vi.setConfig({ testTimeout: 120_000 });
requireBuiltCli(CLI_BIN);
const dir = useTempDir();

const model = useReviewModel();

const ON = { agentHooks: { builtinHooks: { codeReview: true } } };
const evalWrite = { file_path: 'a.js', content: 'module.exports = (q) => eval(q.code);' };

/** The built CLI, run without blocking this process (the model above must answer meanwhile). */
function cli(args: string[], input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = {
    ...process.env,
    HOME: dir.path('home'),
    NO_COLOR: '1',
    AGENT_HOOKS_MODEL_BASE_URL: model.url(),
    AGENT_HOOKS_MODEL: 'reviewer',
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: dir.root, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

async function load(files: Record<string, unknown>) {
  const paths = Object.entries(files).map(([name, doc]) => dir.json(name, doc));
  return loadConfig({ cwd: dir.root, projectDir: dir.root, homeDir: dir.path('home'), settingsFiles: paths, discover: false });
}

describe('agentHooks.builtinHooks in settings', () => {
  it('is read from a --settings file; a misspelt key gets a "did you mean"', async () => {
    const on = await load({ 'on.json': ON });
    expect(on.diagnostics).toEqual([]);
    expect(on.options.builtinHooks).toEqual({ codeReview: true });
    const typo = await load({ 'typo.json': { agentHooks: { builtinHooks: { codeReveiw: true } } } });
    expect(typo.diagnostics.map((d) => [d.path, d.message])).toEqual([
      ['agentHooks.builtinHooks.codeReveiw', 'unknown built-in hook "codeReveiw" (did you mean "codeReview"?)'],
    ]);
    const outer = await load({ 'outer.json': { agentHooks: { builtinHook: { codeReview: true } } } });
    expect(outer.diagnostics.map((d) => d.message)).toEqual([expect.stringContaining('(did you mean "builtinHooks"?)')]);
    const wrongType = await load({ 'type.json': { agentHooks: { builtinHooks: { codeReview: 'yes' } } } });
    expect(wrongType.diagnostics.map((d) => [d.level, d.path])).toEqual([['error', 'agentHooks.builtinHooks.codeReview']]);
  });

  it("is the user's or the admin's choice: a project's value is ignored with a warning", async () => {
    dir.json('.claude/settings.json', ON);
    const config = await loadConfig({ cwd: dir.root, projectDir: dir.root, homeDir: dir.path('home'), unsafeSkipTrustGate: true });
    expect(config.options.builtinHooks).toBeUndefined();
    expect(config.diagnostics.map((d) => [d.level, d.path, d.message])).toEqual([
      ['warning', 'agentHooks.builtinHooks', expect.stringContaining('ignored here (it is project settings)')],
    ]);
  });

  it('run: the review of an edit is fed back to the agent (PostToolUse block)', async () => {
    const settings = dir.json('on.json', ON);
    const r = await cli(['run', 'PostToolUse', '--settings', settings, '--tool', 'Write', '--input', JSON.stringify(evalWrite), '--json']);
    const out = JSON.parse(r.stdout);
    expect(out.hooks.map((h: { id: string }) => h.id)).toEqual(['builtin:codeReview']);
    expect(out.decision).toBe('block');
    expect(out.reason).toBe('eval of request data runs attacker code');
    // Off: no hook at all.
    const off = await cli(['run', 'PostToolUse', '--settings', dir.json('off.json', {}), '--tool', 'Write', '--input', '{}', '--json']);
    expect(JSON.parse(off.stdout).hooks).toEqual([]);
  });

  it('dispatch: a settings file with no hooks but the built-in still reaches the engine', async () => {
    const settings = dir.json('on.json', ON);
    const payload = {
      hook_event_name: 'PostToolUse',
      session_id: 's1',
      transcript_path: '',
      cwd: dir.root,
      tool_name: 'Write',
      tool_input: evalWrite,
      tool_response: { success: true },
    };
    const r = await cli(['dispatch', '--agent', 'claude', '--settings', settings], JSON.stringify(payload));
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'block', reason: 'eval of request data runs attacker code' });
  });

  it('the session manager (and so the host): from the user settings, and as engineOptions', async () => {
    const home = dir.path('home');
    dir.json('home/.claude/settings.json', ON);
    const project = dir.path('p');
    dir.json('p/.claude/settings.json', {});
    const prompt = { baseUrl: model.url(), defaultModel: 'reviewer' };
    const load = (p: string) => loadConfig({ cwd: p, projectDir: p, homeDir: home, unsafeSkipTrustGate: true });
    const input = { tool_name: 'Write', tool_input: evalWrite, tool_response: {} };
    for (const m of [
      createHookManager({ load, engineOptions: { prompt } }),
      createHookManager({
        load: (p) => loadConfig({ cwd: p, projectDir: p, homeDir: dir.path('none') }),
        engineOptions: { prompt, builtinHooks: { codeReview: true } },
      }),
    ]) {
      try {
        const s = await m.bindSession({ sessionId: 's', projectDir: project });
        const d = await s.run('PostToolUse', input);
        expect(d.hooks.map((h) => h.id)).toEqual(['builtin:codeReview']);
        expect(d.reason).toBe('eval of request data runs attacker code');
      } finally {
        await m.close();
      }
    }
  });
});

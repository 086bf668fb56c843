/**
 * The same adversarial hooks and payloads through the real CLI (dist/cli/main.js, a real
 * process): `agent-hooks run` exits 0 / 2 as the policy says, prints a parseable decision,
 * never reports an internal error, and leaves no hook process behind.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { CI_SUBSET, expectNoCrash, expectNoLeak, newTag, prepareFixtures, runCli, writeSettings, type CliResult } from './helpers.js';
import { hostileHookNames, hostileHooks, type HostileHook } from './hostile-hooks.js';

let dir: TempDir;
let cases: HostileHook[];
beforeAll(() => {
  prepareFixtures();
  dir = tempDir('agent-hooks-hardening-cli-');
  mkdirSync(dir.path('tmp'));
  cases = hostileHooks(dir.root);
});
afterAll(() => dir?.cleanup());

/** Runs the CLI with spill files kept in the test's temp dir. */
function cli(args: string[], input?: string | Buffer): Promise<CliResult> {
  return runCli(args, { cwd: dir.root, input, env: { TMPDIR: dir.path('tmp') } });
}

// biome-ignore lint/suspicious/noExplicitAny: the decision is read field by field in each test, as untyped JSON
function decisionOf(r: CliResult): Record<string, any> {
  expectNoCrash(r);
  expect(r.stdout.startsWith('{'), `stdout is not the decision; stderr: ${r.stderr.slice(0, 2000)}`).toBe(true);
  return JSON.parse(r.stdout);
}

describe('agent-hooks run with each adversarial hook (PreToolUse)', () => {
  const names = hostileHookNames();
  // deny shows the policy reached the exit code; ignore shows a failing hook does not block.
  for (const policy of ['deny', 'ignore'] as const) {
    for (const [i, name] of names.entries()) {
      // The CI subset runs the CLI under deny only (the engine test covers every policy).
      it.skipIf(CI_SUBSET && policy === 'ignore')(`${name} — --failure-behavior/--timeout-behavior ${policy}`, async () => {
        const c = cases[i]!;
        const tag = newTag();
        const file = writeSettings(
          dir,
          { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', ...c.handler }] }] },
          tag,
          `settings-${tag}.json`,
        );
        let cwd = dir.root;
        if (c.cwd) {
          cwd = dir.path(`cwd-${tag}`);
          mkdirSync(cwd);
          if (c.cwd === 'removed') rmSync(cwd, { recursive: true });
        }
        const command = c.payloadBytes ? 'x'.repeat(c.payloadBytes) : 'ls';
        const payload = dir.json(`payload-${tag}.json`, { tool_name: 'Bash', tool_input: { command }, cwd });
        const r = await cli([
          'run',
          'PreToolUse',
          '--settings',
          file,
          '--payload',
          payload,
          '--json',
          '--failure-behavior',
          policy,
          '--timeout-behavior',
          policy,
        ]);
        await expectNoLeak(tag);
        const d = decisionOf(r);
        const { error, ...fields } = c.record;
        expect(d.hooks).toHaveLength(1);
        expect(d.hooks[0]).toMatchObject(fields);
        if (error) expect(d.hooks[0].error).toMatch(error);
        const blocks = c.policy === 'blocking' || c.policy === 'engine' || (c.policy !== 'none' && policy === 'deny');
        expect(r.code).toBe(blocks ? 2 : 0);
        expect(d.blocked).toBe(blocks);
        if (blocks) expect(d.decision).toBe('deny');
        else expect(d.decision).toBeUndefined();
      });
    }
  }

  it('the human-readable output survives the worst outputs too (deep JSON, binary)', async () => {
    const tag = newTag();
    const deep = cases.find((c) => c.name.startsWith('prints JSON nested 100,000 levels deep (in updatedInput)'))!;
    const binary = cases.find((c) => c.name.startsWith('writes 256 KiB of random binary'))!;
    const file = writeSettings(
      dir,
      { PreToolUse: [{ hooks: [{ type: 'command', ...deep.handler }] }, { hooks: [{ type: 'command', ...binary.handler }] }] },
      tag,
      `settings-${tag}.json`,
    );
    const r = await cli(['run', 'PreToolUse', '--settings', file, '--tool', 'Bash', '--input', '{"command":"ls"}']);
    await expectNoLeak(tag);
    expectNoCrash(r);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^PreToolUse: no decision/);
    expect(r.stdout).toContain('nested deeper than 512 levels');
  });
});

describe('agent-hooks run with adversarial payloads', () => {
  let file: string;
  let tag: string;
  beforeAll(() => {
    tag = newTag();
    file = writeSettings(
      dir,
      {
        PreToolUse: [{ hooks: [{ type: 'command', command: 'cat >/dev/null' }] }],
        PostToolUse: [{ hooks: [{ type: 'command', command: 'cat >/dev/null' }] }],
      },
      tag,
      'payload-settings.json',
    );
  });
  afterAll(() => expectNoLeak(tag));

  it('a 30 MB payload on stdin: the hook gets a shortened payload, stdinTruncated is reported', async () => {
    const payload = JSON.stringify({
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_response: { stdout: 'z'.repeat(30 * 1024 * 1024) },
    });
    const r = await cli(['run', 'PostToolUse', '--settings', file, '--payload', '-', '--json'], payload);
    const d = decisionOf(r);
    expect(r.code).toBe(0);
    expect(d.hooks[0]).toMatchObject({ outcome: 'success', exitCode: 0, stdinTruncated: true });
  });

  it('a payload with __proto__ keys and 100,000 levels of nesting', async () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const payload = `{"__proto__":{"polluted":true},"tool_name":"Bash","tool_input":{"command":"ls","__proto__":{"x":1},"deep":${deep}}}`;
    const r = await cli(['run', 'PreToolUse', '--settings', file, '--payload', '-', '--json'], payload);
    const d = decisionOf(r);
    expect(r.code).toBe(0);
    expect(d.hooks[0]).toMatchObject({ outcome: 'success', exitCode: 0 });
  });

  it.each([
    ['tool_input is a string', '{"tool_name":"Bash","tool_input":"ls"}', /tool_input/],
    ['tool_name is a number', '{"tool_name":42,"tool_input":{}}', /tool_name/],
    ['session_id is an object', '{"tool_name":"Bash","tool_input":{},"session_id":{}}', /session_id/],
    ['the payload is an array', '[1,2,3]', /must be a JSON object/],
    ['the payload is null', 'null', /must be a JSON object/],
    ['the payload is not JSON', '{"tool_name":', /not valid JSON/],
    ['the payload is binary', '\u0000\u00ff\u00fe', /not valid JSON/],
  ])('wrong types: %s → exit 1 with a clear message', async (_name, payload, message) => {
    const r = await cli(['run', 'PreToolUse', '--settings', file, '--payload', '-', '--json'], payload);
    expectNoCrash(r);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^agent-hooks: /);
    expect(r.stderr).toMatch(message);
  });

  it.each([
    ['--input is an array', ['--tool', 'Bash', '--input', '[1]'], /tool_input/],
    ['--input is not JSON', ['--tool', 'Bash', '--input', '{'], /--input is not valid JSON/],
    ['an unknown event', [], /unknown event/],
  ])('wrong types: %s → exit 1 with a clear message', async (name, args, message) => {
    const event = name === 'an unknown event' ? 'PreToolUsee' : 'PreToolUse';
    const r = await cli(['run', event, '--settings', file, ...args]);
    expectNoCrash(r);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
  });
});

/**
 * `agent-hooks test` must be able to fail: every case of test/fixtures/toolkit/must-fail/ is
 * wrong on purpose, and the runner has to report each one as failed with the right diff.
 * The examples' own fixtures, on the other hand, must pass.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = `${ROOT}dist/cli/main.js`;
const MUST_FAIL = 'test/fixtures/toolkit/must-fail';

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The text block of one case: its line and the indented lines below it. */
function block(stdout: string, name: string): string {
  const lines = stdout.split('\n');
  const start = lines.findIndex((l) => l.includes(`› ${name} `) || l.endsWith(`› ${name}`));
  if (start < 0) throw new Error(`case ${name} not in the output:\n${stdout}`);
  const end = lines.findIndex((l, i) => i > start && !l.startsWith(' '));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: run `npm run build` first (npm test does)');
});

describe('must-fail fixtures', () => {
  const r = { value: undefined as ReturnType<typeof cli> | undefined };
  const run = () => (r.value ??= cli(['test', MUST_FAIL]));

  it('exits 1 and counts every case as failed, and the invalid file', () => {
    const { code, stdout } = run();
    expect(code).toBe(1);
    expect(stdout).toMatch(/\n0 passed, 12 failed, 1 invalid file \(3 files, \d+ ms\)\n$/);
    expect(stdout).not.toContain('✓');
  });

  const diffs: Array<[string, string[]]> = [
    ['wrong decision', ['decision', '- expected: "allow"', '+ actual:   "deny"']],
    ['reason does not match the regex', ['reason', '- expected: a string matching /^rm/', '+ actual:   "no rm here"']],
    ['wrong rewrite', ['updatedInput.command', '- expected: "ls -l"', '+ actual:   "ls -la"']],
    ['missing context', ['additionalContext', '- expected: an entry containing "expected context"', '+ actual:   ["some other context"]']],
    ['hook fails', ['hooks[0].outcome', '- expected: "success"', '+ actual:   "non_blocking_error"']],
    ['too slow', ['maxDurationMs', '- expected: at most 1 ms']],
    [
      'output field misspelled',
      ['warnings', '- expected: none', 'permisionDecision: unknown field (did you mean \\"permissionDecision\\"?)'],
    ],
    ['hook stops the agent', ['continue', '- expected: true', '+ actual:   false']],
    ['stop hook blocks', ['blocked', '- expected: false', '+ actual:   true']],
    ['env value differs', ['additionalContext[0]', '- expected: an entry containing "greeting=goodbye"', '+ actual:   ["greeting=hello"]']],
    ['json: blocked expected but the hook allows', ['blocked', '- expected: true', 'decision', '+ actual:   "allow"']],
    ['json: event output differs', ['eventOutput.sessionTitle', '- expected: "expected title"', '+ actual:   "actual title"']],
  ];
  it.each(diffs)('%s: reported as failed with its diff', (name, parts) => {
    const text = block(run().stdout, name);
    expect(text.startsWith('✗ ')).toBe(true);
    for (const p of parts) expect(text).toContain(p);
  });

  it('the invalid file is rejected with path-qualified errors', () => {
    const text = block(run().stdout.replace('[invalid fixture file]', '› invalid'), 'invalid');
    for (const e of [
      'cases[0].expect.decison: unknown key (did you mean "decision"?)',
      'cases[1].event: unknown event "PreTooluse" (did you mean "PreToolUse"?)',
      'cases[2].name: duplicate case name "typo in event" (also cases[1])',
      'cases[3].payload.tool_input: missing required field (expected record)',
    ]) {
      expect(text).toContain(e);
    }
  });

  it('JUnit: every case is a failure', () => {
    const { code, stdout } = cli(['test', MUST_FAIL, '--reporter', 'junit']);
    expect(code).toBe(1);
    expect(stdout).toContain('<testsuites name="agent-hooks test" tests="13" failures="12" errors="1" skipped="0"');
    expect(stdout.match(/<failure /g)).toHaveLength(12);
  });
});

describe('examples/ fixtures', () => {
  it('pass (`agent-hooks test examples`)', () => {
    const { code, stdout } = cli(['test', 'examples']);
    expect(stdout).toMatch(/\n\d+ passed, 0 failed \(\d+ files, \d+ ms\)\n$/);
    expect(code).toBe(0);
  });
});

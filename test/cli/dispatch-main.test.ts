/**
 * `dispatch`'s command line (src/cli/dispatch-main.ts): the `--agent NAME` shortcut reads exactly
 * what node:util's parseArgs reads, and declines every other command line; the built dispatch with
 * that command line does not load parseArgs' module.
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { agentOnly, DISPATCH_OPTIONS } from '../../src/cli/dispatch-main.js';
import { CLI_BIN, requireBuiltCli } from '../helpers/cli.js';
import { useTempDir } from '../helpers/tmp.js';

requireBuiltCli(CLI_BIN);
const dir = useTempDir();

/** What parseArgs makes of argv: its values (as a plain object), or the error it throws. */
function parsed(argv: string[]): { values: Record<string, unknown> } | { error: string } {
  try {
    return { values: { ...parseArgs({ args: argv, options: DISPATCH_OPTIONS, allowPositionals: false }).values } };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

test('the --agent shortcut reads what parseArgs reads, and declines the rest', () => {
  const word = fc.oneof(
    fc.constantFrom('--agent', '--agent=claude', '--event', '--discover', '-', '--', '-x', '--agent=', ''),
    fc.string({ maxLength: 6, unit: 'binary' }),
    fc.string({ maxLength: 4 }).map((s) => `-${s}`),
  );
  let read = 0;
  let declined = 0;
  fc.assert(
    fc.property(fc.oneof(fc.tuple(fc.constant('--agent'), word), fc.array(word, { maxLength: 4 })), (argv) => {
      const quick = agentOnly(argv);
      if (quick === undefined) {
        declined++;
        return;
      }
      read++;
      expect(parsed(argv)).toEqual({ values: quick });
    }),
    { numRuns: 2000 },
  );
  // Both sides of the boundary were exercised.
  expect(read).toBeGreaterThan(100);
  expect(declined).toBeGreaterThan(100);
  // The shapes parseArgs reads otherwise, or refuses, are left to it.
  for (const argv of [['--agent=claude'], ['--agent', '-x'], ['--agent', '--'], ['--agent', 'claude', '--discover'], ['--agent']])
    expect(agentOnly(argv), argv.join(' ')).toBeUndefined();
  expect(parsed(['--agent', '-x'])).toHaveProperty('error');
});

test('the built dispatch with --agent NAME does not load parseArgs; any other command line does', () => {
  const payload = JSON.stringify({
    session_id: 's',
    transcript_path: dir.path('t.jsonl'),
    cwd: dir.root,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'ls' },
  });
  const builtins = (args: string[]) => {
    const probe = dir.path('probe.cjs');
    dir.write(
      'probe.cjs',
      `process.on('exit', () => require('fs').writeSync(2, '\\n@@' + JSON.stringify(process.moduleLoadList) + '\\n'));`,
    );
    const r = spawnSync(process.execPath, ['-r', probe, CLI_BIN, 'dispatch', ...args], {
      input: payload,
      cwd: dir.root,
      env: { PATH: process.env.PATH ?? '', HOME: dir.path('nohome') },
      encoding: 'utf8',
    });
    expect([r.stdout, r.status], r.stderr).toEqual(['', 0]);
    return JSON.parse(r.stderr.split('\n@@')[1]!) as string[];
  };
  const PARSE_ARGS = 'NativeModule internal/util/parse_args/parse_args';
  expect(builtins(['--agent', 'claude'])).not.toContain(PARSE_ARGS);
  // The recorder sees the module when parseArgs runs.
  expect(builtins(['--agent=claude'])).toContain(PARSE_ARGS);
});

/**
 * Golden dispatch tests: a payload in each agent's shape, dispatched through the real CLI
 * (`node dist/cli/main.js dispatch --agent D`) to a real hook script, must give the byte-exact
 * stdout and the exit code that agent expects (fixtures: test/fixtures/dialects/<agent>/dispatch.json).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DIALECT_NAMES } from '../../src/agents/types.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { runCli } from './cli.js';

const ROOT = resolve(__dirname, '../..');
const FIXTURES = join(ROOT, 'test/fixtures/dialects');
const DECIDE = join(FIXTURES, 'hooks/decide.mjs');
const CASES = ['allow', 'deny', 'ask', 'rewrite', 'context', 'stop'] as const;

interface Case {
  case: (typeof CASES)[number];
  args?: string[];
  payload: Record<string, unknown>;
  stdout: string;
  stderr?: string;
  exitCode: number;
}

let dir: TempDir;
const engineConfig = (c: string) => dir.path(`engine-${c}.json`);

beforeAll(() => {
  dir = tempDir('agent-hooks-dispatch-');
  // One engine config per case: every event the cases use runs decide.mjs with that case.
  const hook = (c: string) => [{ hooks: [{ type: 'command', command: `node ${JSON.stringify(DECIDE)} ${c}` }] }];
  for (const c of CASES) {
    dir.json(`engine-${c}.json`, {
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: hook(c)[0]!.hooks }],
        UserPromptSubmit: hook(c),
        SessionStart: hook(c),
        SubagentStart: hook(c),
        Stop: hook(c),
      },
    });
  }
});
afterAll(() => dir.cleanup());

function fill(value: unknown, cwd: string): unknown {
  return JSON.parse(JSON.stringify(value).split('$CWD').join(cwd));
}

for (const agent of DIALECT_NAMES) {
  const fixture = JSON.parse(readFileSync(join(FIXTURES, agent, 'dispatch.json'), 'utf8')) as { cases: Case[] };
  describe(`dispatch --agent ${agent}`, () => {
    test('covers allow, deny, ask, rewrite, context and stop', () => {
      expect(fixture.cases.map((c) => c.case).sort()).toEqual([...CASES].sort());
    });
    for (const c of fixture.cases) {
      test.concurrent(c.case, async () => {
        const payload = fill(c.payload, dir.root);
        const r = await runCli(
          ['dispatch', '--agent', agent, '--settings', engineConfig(c.case), ...(c.args ?? [])],
          JSON.stringify(payload),
        );
        expect({ stdout: r.stdout, code: r.code }, r.stderr).toEqual({ stdout: c.stdout, code: c.exitCode });
        if (c.stderr !== undefined) expect(r.stderr).toBe(c.stderr);
      });
    }
  });
}

describe('dispatch without hooks to run', () => {
  test.concurrent.each(DIALECT_NAMES)('%s answers with its no-op', async (agent) => {
    const empty = dir.json(`empty-${agent}.json`, { hooks: {} });
    const fixture = JSON.parse(readFileSync(join(FIXTURES, agent, 'dispatch.json'), 'utf8')) as { cases: Case[] };
    const c = fixture.cases.find((x) => x.case === 'deny')!;
    const r = await runCli(
      ['dispatch', '--agent', agent, '--settings', empty, ...(c.args ?? [])],
      JSON.stringify(fill(c.payload, dir.root)),
    );
    expect(r.code).toBe(0);
    // Cursor and the plugin agents read an empty answer as no answer.
    expect(r.stdout).toBe(['cursor', 'opencode', 'kilo', 'pi'].includes(agent) ? '{}\n' : '');
  });

  test('an event with no equivalent is answered with a no-op and a note', async () => {
    const r = await runCli(
      ['dispatch', '--agent', 'gemini', '--settings', engineConfig('deny')],
      JSON.stringify({ hook_event_name: 'BeforeModel', session_id: 's', cwd: dir.root, llm_request: {} }),
    );
    expect(r.code).toBe(0);
    // Gemini parses stderr as output when stdout is empty: the note comes with an empty JSON answer.
    expect(r.stdout).toBe('{}\n');
    expect(r.stderr).toMatch(/BeforeModel.*no equivalent/);
  });

  test('a dispatch run by a hook of a dispatch does nothing (recursion guard)', async () => {
    const payload = JSON.stringify(
      fill(JSON.parse(readFileSync(join(FIXTURES, 'claude/dispatch.json'), 'utf8')).cases[1].payload, dir.root),
    );
    const inner = dir.write('inner-payload.json', payload);
    const innerErr = dir.path('inner.err');
    // The outer hook runs a dispatch of its own over a config that denies: below its own dispatch
    // that one is a no-op, and the outer hook (exit 0) lets the call proceed. Through a script: a
    // hook whose command is itself a dispatch line is left out at load (docs/cli.md "install").
    const script = dir.write(
      'inner-dispatch.sh',
      `${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'dist/cli/bin.cjs'))} dispatch --agent claude --settings ${JSON.stringify(engineConfig('deny'))} < ${JSON.stringify(inner)} 2> ${JSON.stringify(innerErr)}; exit 0\n`,
    );
    const outer = dir.json('outer.json', {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'command',
                command: `sh ${JSON.stringify(script)}`,
              },
            ],
          },
        ],
      },
    });
    const r = await runCli(['dispatch', '--agent', 'claude', '--settings', outer], payload, {
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(readFileSync(innerErr, 'utf8')).toMatch(/recursion guard/);
  });

  test('AGENT_HOOKS_DISPATCH in the agent’s own environment does not switch the guard on (any value)', async () => {
    const payload = JSON.stringify(
      fill(JSON.parse(readFileSync(join(FIXTURES, 'claude/dispatch.json'), 'utf8')).cases[1].payload, dir.root),
    );
    for (const value of ['1', `${process.pid}:`, `${process.ppid}:0`]) {
      const r = await runCli(['dispatch', '--agent', 'claude', '--settings', engineConfig('deny')], payload, {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, AGENT_HOOKS_DISPATCH: value },
      });
      expect(r.stderr, value).not.toMatch(/recursion guard/);
      expect(r.stdout, value).toMatch(/"permissionDecision":"deny"/);
    }
  });

  test('invalid JSON on stdin is a non-blocking error (exit 1)', async () => {
    const r = await runCli(['dispatch', '--agent', 'kimi', '--settings', engineConfig('deny')], '{not json');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not valid JSON/);
  });

  test('an unknown agent is a usage error', async () => {
    const r = await runCli(['dispatch', '--agent', 'vim'], '{}');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/unknown agent "vim"/);
  });
});

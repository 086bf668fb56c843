import { describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { useTempDir } from '../helpers/tmp.js';

const cli = (args: string[], opts: { cwd?: string; input?: string } = {}) => runCli(args, { ...opts, timeout: 30_000 });

requireBuiltCli();
const dir = useTempDir();

const denyRm = {
  hooks: {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          {
            type: 'command',
            if: 'Bash(rm *)',
            command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}'`,
          },
        ],
      },
    ],
  },
};

describe('agent-hooks run', () => {
  it('--json prints the documented fields; exit 2 when blocked', () => {
    const settings = dir.json('s.json', denyRm);
    const r = cli([
      'run',
      'PreToolUse',
      '--settings',
      settings,
      '--cwd',
      dir.root,
      '--tool',
      'Bash',
      '--input',
      '{"command":"rm -rf x"}',
      '--json',
    ]);
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      event: 'PreToolUse',
      blocked: true,
      decision: 'deny',
      reason: 'no rm',
      additionalContext: [],
      systemMessages: [],
      continue: true,
    });
    expect(out.hooks).toHaveLength(1);
    expect(out.hooks[0]).toMatchObject({ outcome: 'success', decision: 'deny', exitCode: 0 });
    expect(typeof out.hooks[0].durationMs).toBe('number');
  });

  it('exit 0 when the action proceeds; fills the common fields', () => {
    const settings = dir.json('s.json', {
      hooks: {
        UserPromptSubmit: [
          {
            hooks: [
              {
                type: 'command',
                command: `node -e "let r='';process.stdin.on('data',c=>r+=c).on('end',()=>{const i=JSON.parse(r);console.log([i.session_id?'sid':'', i.cwd, i.hook_event_name, typeof i.transcript_path, i.hook_execution_id?'xid':'', i.timestamp?'ts':''].join(','))})"`,
              },
            ],
          },
        ],
      },
    });
    const r = cli(['run', 'UserPromptSubmit', '--settings', settings, '--cwd', dir.root, '--payload', '-', '--json'], {
      input: '{"prompt":"hi"}',
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).additionalContext).toEqual([`sid,${dir.root},UserPromptSubmit,string,xid,ts`]);
  });

  it('continue:false exits 2 and reports stopReason', () => {
    const settings = dir.json('s.json', {
      hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: `echo '{"continue":false,"stopReason":"halt"}'` }] }] },
    });
    const r = cli(
      ['run', 'PostToolUse', '--settings', settings, '--cwd', dir.root, '--tool', 'Bash', '--input', '{}', '--payload', '-', '--json'],
      {
        input: '{"tool_response": {"stdout": ""}}',
      },
    );
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ continue: false, stopReason: 'halt', blocked: false });
  });

  it('prints a readable summary without --json', () => {
    const settings = dir.json('s.json', denyRm);
    const r = cli(['run', 'PreToolUse', '--settings', settings, '--cwd', dir.root, '--tool', 'Bash', '--input', '{"command":"rm x"}']);
    expect(r.stdout).toContain('PreToolUse: deny (blocked) — no rm');
  });

  it('usage and config errors exit 1 with a clear message', () => {
    expect(cli(['run', 'NoSuchEvent']).code).toBe(1);
    const bad = dir.json('bad.json', { hooks: { PreToolUse: [{ hooks: [{ type: 'command' }] }] } });
    const r = cli(['run', 'PreToolUse', '--settings', bad, '--tool', 'Bash', '--input', '{}']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${bad}: hooks.PreToolUse[0].hooks[0].command`);
    const r2 = cli(['run', 'PreToolUse', '--settings', dir.json('ok.json', denyRm), '--tool', 'Bash', '--input', '{not json']);
    expect(r2.code).toBe(1);
    expect(r2.stderr).toContain('--input is not valid JSON');
    const r3 = cli(['run', 'PreToolUse', '--settings', dir.json('ok2.json', denyRm), '--payload', '-'], {
      input: '{"tool_name": 5, "tool_input": {}}',
    });
    expect(r3.code).toBe(1);
    expect(r3.stderr).toContain('tool_name');
    // A wrong event field is named, even when no hook would match (a missing one gets its default).
    const r4 = cli(
      ['run', 'PostToolUse', '--settings', dir.json('ok3.json', denyRm), '--tool', 'Bash', '--input', '{}', '--payload', '-'],
      { input: '{"tool_use_id": 7}' },
    );
    expect(r4.code).toBe(1);
    expect(r4.stderr).toContain('tool_use_id: expected a string, got the number 7');
  });

  it('inline --settings JSON disables all hooks', () => {
    const settings = dir.json('s.json', denyRm);
    const r = cli([
      'run',
      'PreToolUse',
      '--settings',
      settings,
      '--settings',
      '{"disableAllHooks": true}',
      '--cwd',
      dir.root,
      '--tool',
      'Bash',
      '--input',
      '{"command":"rm -rf x"}',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hooks).toEqual([]);
  });
});

describe('agent-hooks check', () => {
  it('exit 1 with file: path: problem lines', () => {
    const bad = dir.json('settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'x', timeout: 'five' }] }] },
    });
    const r = cli(['check', bad]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${bad}: hooks.PreToolUse[0].hooks[0].timeout:`);
  });

  it('warnings (invalid regex, if on a non-tool event) exit 0 but are printed', () => {
    const file = dir.json('settings.json', {
      hooks: {
        PreToolUse: [{ matcher: '[unclosed', hooks: [{ type: 'command', command: 'x' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'x', if: 'Bash(git *)' }] }],
      },
    });
    const r = cli(['check', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/warning: .*hooks\.PreToolUse\[0\]\.hooks\[0\]: matcher "\[unclosed" is not a valid regular expression/);
    expect(r.stdout).toMatch(/warning: .*hooks\.Stop\[0\]\.hooks\[0\]\.if/);
  });

  it('reports every matcher RE2 cannot run (backreference, lookaround) as an error, and nothing for linear ones', () => {
    const group = (matcher: string) => ({ matcher, hooks: [{ type: 'command', command: 'x' }] });
    const file = dir.json('settings.json', {
      hooks: { PreToolUse: [group('(a+)+$'), group('mcp__.*__write.*'), group('((a+)+)\\1$'), group('^(?!Read).*')] },
    });
    const r = cli(['check', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/PreToolUse\[0\]/);
    expect(r.stdout).not.toMatch(/PreToolUse\[1\]/);
    expect(r.stdout).toMatch(
      /hooks\.PreToolUse\[2\]\.hooks\[0\]: matcher .* cannot be matched in bounded time: .*; this hook reports an error instead of running/,
    );
    expect(r.stdout).toMatch(/hooks\.PreToolUse\[3\]\.hooks\[0\]: matcher .* cannot be matched in bounded time/);
    expect(r.stdout).toMatch(/2 error\(s\), 0 warning\(s\)/);
  });

  it('walks a directory: settings files and plugin hooks.json', () => {
    dir.json('proj/.claude/settings.json', denyRm);
    dir.json('plug/hooks/hooks.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } });
    dir.json('data/payload.json', { prompt: 'not a settings file' });
    const r = cli(['check', dir.root, '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.files.map((f: { kind: string }) => f.kind).sort()).toEqual(['plugin', 'settings']);
    expect(out.hooks).toBe(2);
  });
});

describe('agent-hooks list and schema', () => {
  it('lists effective hooks with provenance, after dedup', () => {
    const a = dir.json('a.json', denyRm);
    const b = dir.json('b.json', denyRm);
    const r = cli(['list', '--settings', a, '--settings', b, '--json']);
    expect(r.code).toBe(0);
    const hooks = JSON.parse(r.stdout);
    expect(hooks).toHaveLength(1);
    expect(hooks[0].source).toMatchObject({ kind: 'cli', file: b, path: 'hooks.PreToolUse[0].hooks[0]' });
    const filtered = JSON.parse(cli(['list', '--settings', a, '--event', 'Stop', '--json']).stdout);
    expect(filtered).toEqual([]);
  });

  it('schema prints a JSON Schema whose hooks properties are the catalog events', () => {
    const r = cli(['schema']);
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.stdout);
    const events = Object.keys(schema.properties.hooks.properties);
    expect(events).toContain('PreToolUse');
    expect(events).toContain('SessionHeartbeat');
    expect(events).toHaveLength(37);
  });
});

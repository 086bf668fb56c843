/**
 * `agent-hooks run` for every event without a payload, its field flags, --example, plain-English
 * payload errors, --verbose with each trap, the skipped-hooks summary and exit code 3 for ask.
 */
import { describe, expect, it, vi } from 'vitest';

// Each test spawns the CLI many times; on a loaded machine that takes a while.
vi.setConfig({ testTimeout: 120000 });
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EVENT_NAMES } from '../../src/events/catalog.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { useTempDir } from '../helpers/tmp.js';

const cli = (args: string[], opts: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {}) =>
  runCli(args, { ...opts, env: { ...process.env, NO_COLOR: '1', ...opts.env } });

requireBuiltCli();
const dir = useTempDir();

describe('run EVENT with no payload', () => {
  it('fires every event of the catalog: each hook runs and gets a payload valid for its event', () => {
    // One command hook per event that copies its stdin to <event>.json.
    const hooks: Record<string, unknown> = {};
    for (const e of EVENT_NAMES) hooks[e] = [{ hooks: [{ type: 'command', command: `cat > "${dir.root}/${e}.json"` }] }];
    const settings = dir.json('s.json', { hooks });
    for (const e of EVENT_NAMES) {
      const r = cli(['run', e, '--settings', settings, '--cwd', dir.root, '--json']);
      expect(r.stderr, e).not.toMatch(/invalid|error/i);
      expect([0, 2, 3], `${e}: ${r.stderr}`).toContain(r.code);
      const out = JSON.parse(r.stdout);
      expect(out.hooks, e).toHaveLength(1);
      expect(out.hooks[0].outcome, e).toBe('success');
      const got = JSON.parse(readFileSync(`${dir.root}/${e}.json`, 'utf8'));
      expect(got.hook_event_name).toBe(e);
      expect(got.cwd).toBe(dir.root);
    }
  }, 240_000);

  it('the flags set their fields; a flag the event lacks is refused naming the events it applies to', () => {
    const settings = dir.json('s.json', {
      hooks: Object.fromEntries(
        ['UserPromptSubmit', 'PostToolUse', 'Stop', 'SessionStart', 'PreCompact', 'Notification', 'PreToolUse'].map((e) => [
          e,
          [{ hooks: [{ type: 'command', command: `cat > "${dir.root}/${e}.json"` }] }],
        ]),
      ),
    });
    const read = (e: string) => JSON.parse(readFileSync(`${dir.root}/${e}.json`, 'utf8'));
    const base = ['--settings', settings, '--cwd', dir.root];
    expect(cli(['run', 'UserPromptSubmit', ...base, '--prompt', 'fix the bug']).code).toBe(0);
    expect(read('UserPromptSubmit').prompt).toBe('fix the bug');
    expect(
      cli(['run', 'PostToolUse', ...base, '--tool', 'Write', '--input', '{"file_path":"a.txt"}', '--response', '{"success":true}']).code,
    ).toBe(0);
    expect(read('PostToolUse')).toMatchObject({ tool_name: 'Write', tool_input: { file_path: 'a.txt' }, tool_response: { success: true } });
    expect(cli(['run', 'Stop', ...base]).code).toBe(0);
    expect(read('Stop').stop_hook_active).toBe(false);
    expect(cli(['run', 'Stop', ...base, '--stop-active']).code).toBe(0);
    expect(read('Stop').stop_hook_active).toBe(true);
    expect(cli(['run', 'SessionStart', ...base, '--source', 'resume']).code).toBe(0);
    expect(read('SessionStart').source).toBe('resume');
    expect(cli(['run', 'PreCompact', ...base, '--trigger', 'auto']).code).toBe(0);
    expect(read('PreCompact').trigger).toBe('auto');
    expect(cli(['run', 'Notification', ...base, '--message', 'build done']).code).toBe(0);
    expect(read('Notification').message).toBe('build done');
    // Defaults: PreToolUse without --tool is Bash `ls`; --tool alone gets an empty tool_input.
    expect(cli(['run', 'PreToolUse', ...base]).code).toBe(0);
    expect(read('PreToolUse')).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(cli(['run', 'PreToolUse', ...base, '--tool', 'Read']).code).toBe(0);
    expect(read('PreToolUse').tool_input).toEqual({});

    const wrong = cli(['run', 'Stop', ...base, '--prompt', 'x']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('--prompt sets prompt, which Stop does not have (it applies to UserPromptSubmit');
    const badJson = cli(['run', 'PostToolUse', ...base, '--response', '{oops']);
    expect(badJson.code).toBe(1);
    expect(badJson.stderr).toContain('--response is not valid JSON');
  });

  it('--example prints the full payload (flags applied) without running any hook', () => {
    const settings = dir.json('s.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: `touch "${dir.root}/ran"` }] }] } });
    const r = cli(['run', '--example', 'Stop', '--stop-active', '--settings', settings, '--cwd', dir.root]);
    expect(r.code).toBe(0);
    const p = JSON.parse(r.stdout);
    expect(Object.keys(p).slice(0, 5)).toEqual(['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'permission_mode']);
    expect(p).toMatchObject({ hook_event_name: 'Stop', stop_hook_active: true, cwd: dir.root, permission_mode: 'default' });
    expect(typeof p.hook_execution_id).toBe('string');
    expect(existsSync(`${dir.root}/ran`)).toBe(false);
  });

  it('payload errors are plain English: the path, what was expected, what came', () => {
    const r = cli(['run', 'PreToolUse', '--cwd', dir.root, '--settings', '{}', '--payload', '-'], { input: '{"tool_name": 3}' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('invalid PreToolUse payload: tool_name: expected a string, got the number 3');
    const s = cli(['run', 'Stop', '--cwd', dir.root, '--settings', '{}', '--payload', '-'], { input: '{"stop_hook_active": "yes"}' });
    expect(s.stderr).toContain('stop_hook_active: expected a boolean (true or false), got the string "yes"');
    const n = cli(['run', 'PostToolBatch', '--cwd', dir.root, '--settings', '{}', '--payload', '-'], {
      input: '{"tool_calls": [{"tool_name": "Bash"}]}',
    });
    expect(n.stderr).toMatch(/tool_calls\[0\]\.tool_input: expected an object, got nothing \(the field is missing\)/);
    expect(n.stderr).not.toMatch(/Invalid input|received undefined|nonoptional/);
  });

  it('a wrong event name gets "did you mean", by prefix as well as by spelling', () => {
    expect(cli(['run', 'PreTool', '--settings', '{}']).stderr).toContain('unknown event "PreTool" (did you mean "PreToolUse"?)');
    expect(cli(['run', 'Stpo', '--settings', '{}']).stderr).toContain('(did you mean "Stop"?)');
    expect(cli(['run', 'Zzzzzz', '--settings', '{}']).stderr).toContain('Events: SessionStart');
  });
});

describe('run --verbose and the traps', () => {
  const script = (name: string, body: string) => {
    const p = dir.write(name, body);
    chmodSync(p, 0o755);
    return p;
  };

  it("--verbose shows each hook's stdin, stdout and stderr; --json carries them as io only with --verbose", () => {
    const settings = dir.json('s.json', {
      hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `cat >/dev/null; echo context-line; echo to-stderr >&2` }] }] },
    });
    const args = ['run', 'UserPromptSubmit', '--settings', settings, '--cwd', dir.root, '--prompt', 'hello there'];
    const plain = cli(args);
    expect(plain.stdout).not.toContain('stdin:');
    const v = cli([...args, '--verbose']);
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/stdin:\n\s+\{"session_id".*"prompt":"hello there"/);
    expect(v.stdout).toMatch(/stdout:\n\s+context-line/);
    expect(v.stdout).toMatch(/stderr:\n\s+to-stderr/);
    const j = JSON.parse(cli([...args, '--json', '--verbose']).stdout);
    expect(j.hooks[0].io).toMatchObject({ stdout: 'context-line\n', stderr: 'to-stderr\n' });
    expect(JSON.parse(j.hooks[0].io.stdin).prompt).toBe('hello there');
    expect(JSON.parse(cli([...args, '--json']).stdout).hooks[0].io).toBeUndefined();
  });

  it('the audit record carries the streams with --verbose, and not without', () => {
    const settings = dir.json('s.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: `echo out; echo err >&2` }] }] } });
    const audit = `${dir.root}/audit.jsonl`;
    cli(['run', 'Stop', '--settings', settings, '--cwd', dir.root, '--audit', audit]);
    cli(['run', 'Stop', '--settings', settings, '--cwd', dir.root, '--audit', audit, '--verbose']);
    const [quiet, loud] = readFileSync(audit, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(quiet.io).toBeUndefined();
    expect(loud.io).toMatchObject({ stdout: 'out\n', stderr: 'err\n' });
  });

  it('caps each stream, saying how much was left out', () => {
    const settings = dir.json('s.json', {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: `head -c 20000 /dev/zero | tr '\\0' a` }] }] },
    });
    const j = JSON.parse(cli(['run', 'Stop', '--settings', settings, '--cwd', dir.root, '--json', '--verbose']).stdout);
    expect(j.hooks[0].io.stdout).toMatch(/^a{8192}…\[11808 more bytes\]$/);
  });

  it('warns when JSON has log lines around it (its deny was lost)', () => {
    const hook = script(
      'guard.py',
      `#!/bin/sh\necho "DEBUG starting"\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}'\n`,
    );
    const settings = dir.json('s.json', { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: hook }] }] } });
    const r = cli(['run', 'PreToolUse', '--settings', settings, '--cwd', dir.root]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('trap: ');
    expect(r.stdout).toContain('stdout has a JSON object on line 2 with other output around it');
    const j = JSON.parse(cli(['run', 'PreToolUse', '--settings', settings, '--cwd', dir.root, '--json']).stdout);
    expect(j.traps).toHaveLength(1);
    // A clean JSON answer is no trap.
    const clean = dir.json('c.json', {
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `echo '{"systemMessage":"ok"}'` }] }] },
    });
    expect(cli(['run', 'PreToolUse', '--settings', clean, '--cwd', dir.root]).stdout).not.toContain('trap:');
  });

  it('warns on exit 127 (missing script or interpreter) and 126 (not executable) of a hook that could block', () => {
    const missing = dir.json('m.json', {
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `${dir.root}/no-such-guard.sh` }] }] },
    });
    const r = cli(['run', 'PreToolUse', '--settings', missing, '--cwd', dir.root]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /trap: .*exit 127 \(command not found: a missing interpreter or script\); this hook could block PreToolUse but never ran, and the action proceeds/,
    );
    const p = dir.write('noexec.sh', '#!/bin/sh\nexit 2\n');
    chmodSync(p, 0o644);
    const noexec = dir.json('n.json', { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: p }] }] } });
    expect(cli(['run', 'PreToolUse', '--settings', noexec, '--cwd', dir.root]).stdout).toMatch(/trap: .*exit 126 \(not executable\)/);
    // On an event no hook can block, the same exit is not called a trap.
    const obs = dir.json('o.json', { hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: `${dir.root}/no-such.sh` }] }] } });
    expect(cli(['run', 'SessionEnd', '--settings', obs, '--cwd', dir.root]).stdout).not.toContain('trap:');
  });

  it('warns when a hook that could deny crashed and its policy let the action proceed; not with failureBehavior deny', () => {
    const crash = script('crash.sh', '#!/bin/sh\necho "Traceback: boom" >&2\nexit 1\n');
    const settings = dir.json('s.json', { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: crash }] }] } });
    const r = cli(['run', 'PreToolUse', '--settings', settings, '--cwd', dir.root]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /trap: .*failed with exit 1 on PreToolUse, which it could block; its failure policy is ignore.*stderr: Traceback: boom/,
    );
    // The agent's rule, not an engine option, is the fix it names.
    expect(r.stdout).toContain('exit 2 blocks; exit 1 is a non-blocking error in Claude Code');
    expect(r.stdout).not.toContain('"failureBehavior": "deny"');
    const denied = cli(['run', 'PreToolUse', '--settings', settings, '--cwd', dir.root, '--failure-behavior', 'deny']);
    expect(denied.code).toBe(2);
    expect(denied.stdout).not.toContain('trap:');
  });

  it('warns when a guard exits 0 but says a tool it calls was not found (jq missing)', () => {
    const guard = script('guard.sh', '#!/bin/sh\nno-such-jq-tool -r .tool_input.command\nexit 0\n');
    const settings = dir.json('s.json', { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: guard }] }] } });
    const r = cli(['run', 'PreToolUse', '--settings', settings, '--cwd', dir.root]);
    expect(r.stdout).toMatch(/trap: .*exited 0 but its stderr says something was not found/);
  });

  it('exits 3 when a hook asks, 2 when it denies, 0 when it allows', () => {
    const answer = (d: string) =>
      dir.json(`${d}.json`, {
        hooks: {
          PreToolUse: [
            {
              hooks: [
                { type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"${d}"}}'` },
              ],
            },
          ],
        },
      });
    expect(cli(['run', 'PreToolUse', '--settings', answer('ask'), '--cwd', dir.root]).code).toBe(3);
    expect(cli(['run', 'PreToolUse', '--settings', answer('deny'), '--cwd', dir.root]).code).toBe(2);
    expect(cli(['run', 'PreToolUse', '--settings', answer('allow'), '--cwd', dir.root]).code).toBe(0);
  });
});

describe('run in an untrusted workspace', () => {
  it('one summary line with the command that trusts, instead of one warning per hook; --verbose lists each', () => {
    const home = dir.path('home');
    const proj = dir.path('proj');
    dir.write('home/.keep', '');
    dir.json('proj/.claude/settings.json', {
      hooks: {
        UserPromptSubmit: [
          {
            hooks: [
              { type: 'command', command: 'echo a' },
              { type: 'command', command: 'echo b' },
            ],
          },
        ],
        Stop: [{ hooks: [{ type: 'command', command: 'echo c' }] }],
      },
    });
    const env = { HOME: home, XDG_CONFIG_HOME: `${home}/.config`, AGENT_HOOKS_TRUST_STORE: `${home}/trust.json` };
    const r = cli(['run', 'UserPromptSubmit', '--cwd', proj], { env });
    expect(r.code).toBe(0);
    const lines = r.stderr
      .trim()
      .split('\n')
      .filter((l) => l.includes('skipped'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^warning: 3 project hooks skipped \(untrusted: .*\); review with `agent-hooks status --cwd .*`, then trust with `agent-hooks trust --cwd .* --digest sha256:[0-9a-f]+`$/,
    );
    expect(r.stdout).toContain('no hooks ran (3 skipped by the trust gate');
    const v = cli(['run', 'UserPromptSubmit', '--cwd', proj, '--verbose'], { env });
    expect(v.stderr.split('\n').filter((l) => l.trimStart().startsWith('skipped '))).toHaveLength(3);
  });
});

describe('docs/cli.md', () => {
  it('documents the default payload of every event as run builds it', async () => {
    const { sampleInput } = await import('../../src/toolkit/sample.js');
    const doc = readFileSync(fileURLToPath(new URL('../../docs/cli.md', import.meta.url)), 'utf8');
    for (const e of EVENT_NAMES) {
      const fields = sampleInput(e);
      const cell = Object.keys(fields).length > 0 ? `\`${JSON.stringify(fields)}\`` : '(none)';
      expect(doc, e).toContain(`| ${e} | ${cell} |`);
    }
  });
});

describe('run and a hook that declares itself async on its first stdout line', () => {
  it('waits for it and prints what it answered after the declaration (one event per process)', () => {
    const later = JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'late ctx' } });
    const command = `echo '{"async":true}'; sleep 0.2; printf '%s\\n' '${later}'`;
    const settings = dir.json('async.json', { hooks: { SessionStart: [{ hooks: [{ type: 'command', command }] }] } });
    const r = cli(['run', 'SessionStart', '--settings', settings, '--cwd', dir.root, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.additionalContext).toEqual(['late ctx']);
    expect(out.hooks).toHaveLength(1);
  });
});

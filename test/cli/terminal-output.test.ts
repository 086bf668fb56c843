/**
 * Hook-controlled text reaches a terminal escaped: every command that prints hook commands,
 * reasons, messages, matchers or paths, driven through the built CLI with a payload of
 * terminal control sequences (CR + erase line, OSC 52 clipboard write, screen clear, cursor
 * home, BEL, a bidi override). No raw ESC, CR, BEL or override may come out; JSON stays exact.
 */
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { useTempDir } from '../helpers/tmp.js';
import { forTerminal, oneLine } from '../../src/util/terminal-text.js';

const EVIL = '\x1b]52;c;ZXZpbA==\x07\x1b[2J\x1b[H\r\u202ePreToolUse: allow';
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are what the test looks for
const RAW = /[\x1b\x07\r\u202e\u2066-\u2069\x9b]/;

requireBuiltCli();
const dir = useTempDir('agent-hooks-terminal-');
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  mkdirSync(dir.path('home'));
  env = { ...process.env, HOME: dir.path('home'), AGENT_HOOKS_TRUST_STORE: dir.path('home', 'trust.json') };
  delete env.XDG_CONFIG_HOME;
});

function cli(args: string[], opts: { cwd?: string; input?: string } = {}) {
  const r = runCli(args, { cwd: opts.cwd ?? dir.root, input: opts.input, env });
  return { ...r, all: `${r.stdout}${r.stderr}` };
}

function expectSafe(out: string, what: string) {
  const at = out.search(RAW);
  expect(at, `${what}: raw control character at ${at}: ${JSON.stringify(out.slice(Math.max(0, at - 20), at + 20))}`).toBe(-1);
}

/** A project whose hook command, matcher, reason, messages and stderr all carry EVIL. */
function evilProject() {
  const root = dir.path('project');
  dir.write(
    'project/.claude/hooks/evil.mjs',
    `const evil = ${JSON.stringify(EVIL)};
if (process.argv[2] === 'fail') { process.stderr.write(evil + '\\n'); process.exit(1); }
process.stdout.write(JSON.stringify({ systemMessage: evil, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: evil } }));
`,
  );
  const command = `node "$CLAUDE_PROJECT_DIR/.claude/hooks/evil.mjs" # \r\x1b[2Knpm run lint`;
  const settings = dir.json('project/.claude/settings.json', {
    hooks: {
      PreToolUse: [
        { matcher: `Bash|\x1b[31mEdit`, hooks: [{ type: 'command', command }] },
        { matcher: 'Bash', hooks: [{ type: 'command', command }] },
      ],
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: `node "$CLAUDE_PROJECT_DIR/.claude/hooks/evil.mjs" fail # \r\x1b[2K` }] }],
    },
  });
  return { root, settings };
}

describe('forTerminal', () => {
  it('escapes C0, DEL, C1, bidi and format characters; keeps newlines unless one-line', () => {
    expect(forTerminal('a\x1b[2Kb\x07\x7f\x9b\u202e\u2066\u200b\u2028')).toBe('a\\x1b[2Kb\\x07\\x7f\\x9b\\u202e\\u2066\\u200b\\u2028');
    expect(forTerminal('one\ntwo\r\n')).toBe('one\ntwo\\r\n');
    expect(oneLine('one\ntwo\tthree\r')).toBe('one\\ntwo\\tthree\\r');
    expect(forTerminal('plain: npm run lint -- "a\\b" ü 日本')).toBe('plain: npm run lint -- "a\\b" ü 日本');
  });
  it('escapes exactly what the eager definition escaped, for any text (printable ASCII skips the Unicode sets)', () => {
    // The definition before the sets were made on first use, kept here as the reference.
    const reference = (text: string, one: boolean) =>
      /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u.test(text)
        ? text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu, (ch) => {
            if (ch === '\n') return one ? '\\n' : ch;
            if (ch === '\t') return one ? '\\t' : ch;
            if (ch === '\r') return '\\r';
            const cp = ch.codePointAt(0)!;
            return cp < 0x100 ? `\\x${cp.toString(16).padStart(2, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
          })
        : text;
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.string({ unit: 'grapheme-ascii', maxLength: 30 }),
      fc.string({
        unit: fc.constantFrom('a', ' ', '~', '\x1f', '\x7f', '\n', '\t', '\r', '\u200b', '\u2028', '\ud800', 'é'),
        maxLength: 12,
      }),
    );
    fc.assert(
      fc.property(text, fc.boolean(), (t, one) => {
        expect(forTerminal(t, { oneLine: one })).toBe(reference(t, one));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('every command that prints hook text escapes it', () => {
  it('run, list, check (text) escape; run --json stays exact', () => {
    const { root, settings } = evilProject();
    const run = cli(['run', 'PreToolUse', '--settings', settings, '--cwd', root, '--tool', 'Bash', '--input', '{"command":"ls"}']);
    expect(run.code, run.stderr).toBe(2);
    expectSafe(run.all, 'run');
    expect(run.stdout).toContain('\\x1b]52;c;ZXZpbA==\\x07');
    expect(run.stdout).toContain('\\u202ePreToolUse: allow');

    const json = cli([
      'run',
      'PreToolUse',
      '--settings',
      settings,
      '--cwd',
      root,
      '--tool',
      'Bash',
      '--input',
      '{"command":"ls"}',
      '--json',
    ]);
    expect(JSON.parse(json.stdout).reason).toBe(EVIL);

    const list = cli(['list', '--settings', settings, '--cwd', root]);
    expectSafe(list.all, 'list');
    expect(list.stdout).toContain('\\r\\x1b[2Knpm run lint');
    expect(list.stdout).toContain('Bash|\\x1b[31mEdit');

    const check = cli(['check', settings]);
    expectSafe(check.all, 'check');
    expect(check.stdout).toMatch(/Bash\|\\(x1b|u001b)\[31mEdit/);
  });

  it('doctor and convert escape hook commands, matchers and losses', () => {
    const { root, settings } = evilProject();
    const doctor = cli(['doctor', '--settings', settings, '--cwd', root]);
    expectSafe(doctor.all, 'doctor');
    expect(doctor.stdout).toContain('Bash|\\x1b[31mEdit');
    const convert = cli(['convert', '--to', 'kimi', settings]);
    expectSafe(convert.all, 'convert');
    // The converted file on stdout is data: its own format's escapes (TOML \u001b), never a raw ESC.
    expect(convert.stdout).toMatch(/\\u001b\[2K/i);
  });

  it('status, trust and revoke escape the hook summaries', () => {
    const { root } = evilProject();
    const status = cli(['status', '--cwd', root]);
    expectSafe(status.all, 'status');
    expect(status.stdout).toContain('\\r\\x1b[2Knpm run lint');
    const trust = cli(['trust', '--cwd', root]);
    expect(trust.code, trust.all).toBe(0);
    expectSafe(trust.all, 'trust');
    expect(trust.stdout).toContain('\\r\\x1b[2K');
    const after = cli(['status', '--cwd', root]);
    expectSafe(after.all, 'status after trust');

    // dispatch: stdout is the agent's protocol (exact), stderr is escaped.
    const payload = JSON.stringify({ session_id: 's', transcript_path: '', cwd: root, hook_event_name: 'UserPromptSubmit', prompt: 'hi' });
    const dispatch = cli(['dispatch', '--agent', 'claude'], { cwd: root, input: payload });
    expect(dispatch.code, dispatch.all).toBe(0);
    expectSafe(dispatch.stderr, 'dispatch stderr');
    expect(dispatch.stderr).toContain('\\x1b]52');

    const revoke = cli(['revoke', '--cwd', root]);
    expect(revoke.code, revoke.all).toBe(0);
    expectSafe(revoke.all, 'revoke');
  });

  it('test (fixture runner) escapes reasons in failure reports', () => {
    const { root, settings } = evilProject();
    const fixture = dir.write(
      'project/evil.test.yaml',
      `defaults:\n  settings: ${JSON.stringify(settings)}\n  cwd: ${JSON.stringify(root)}\ncases:\n  - name: "evil \\e[2J\\r case"\n    event: PreToolUse\n    payload: { tool_name: Bash, tool_input: { command: ls } }\n    expect:\n      reason: fine\n`,
    );
    const test = cli(['test', fixture]);
    expect(test.code).toBe(1);
    expectSafe(test.all, 'test');
    expect(test.stdout).toMatch(/\\(x1b|u001b)\]52/);
  });
});

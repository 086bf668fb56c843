/**
 * `"enabled": false` (issue 42, item 5): the hook stays in the file, the engine's planning skips
 * it (the one place), `list`, the trust report (TUI, panel) show it off, dispatch answers as if it
 * were not there, and `convert` says what another agent would do with it.
 */
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createHookEngine } from '../../src/engine/engine.js';
import { convertText } from '../../src/agents/shared/convert.js';
import { loadTrustedConfig } from '../../src/trust/load.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { useTempDir } from '../helpers/tmp.js';

requireBuiltCli();
const dir = useTempDir();

const DENY = { type: 'command', command: 'echo "no rm" >&2; exit 2' };
const settingsWith = (deny: Record<string, unknown>, name = 'settings.json') =>
  dir.json(name, { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [deny, { type: 'command', command: 'exit 0' }] }] } });
const INPUT = { session_id: 's', transcript_path: '', cwd: '/', tool_name: 'Bash', tool_input: { command: 'rm -rf x' } };

async function decide(settings: string) {
  const config = await loadConfig({ cwd: dir.root, projectDir: dir.root, discover: false, settingsFiles: [settings] });
  expect(config.diagnostics).toEqual([]);
  const engine = createHookEngine({ hooks: config.hooks, projectDir: dir.root, spawner: false });
  try {
    return await engine.run('PreToolUse', INPUT);
  } finally {
    await engine.close();
  }
}

describe('the engine', () => {
  test('runs every hook but the switched-off one', async () => {
    expect((await decide(settingsWith(DENY))).decision).toBe('deny');
    const off = await decide(settingsWith({ ...DENY, enabled: false }));
    expect(off.decision).not.toBe('deny');
    expect(off.hooks).toHaveLength(1);
    // "enabled": true is the default, written out.
    expect((await decide(settingsWith({ ...DENY, enabled: true }))).decision).toBe('deny');
  });

  test('a disabled copy never stands in for an enabled one of another layer', async () => {
    const user = settingsWith({ ...DENY, enabled: false }, 'a.json');
    const project = settingsWith(DENY, 'b.json');
    const config = await loadConfig({ cwd: dir.root, projectDir: dir.root, discover: false, settingsFiles: [user, project] });
    const engine = createHookEngine({ hooks: config.hooks, projectDir: dir.root, spawner: false });
    try {
      expect((await engine.run('PreToolUse', INPUT)).decision).toBe('deny');
    } finally {
      await engine.close();
    }
  });
});

describe('the surfaces', () => {
  test('list shows it disabled; dispatch answers as if it were not there', () => {
    const settings = settingsWith({ ...DENY, enabled: false });
    const env = { ...process.env, HOME: dir.root };
    const list = runCli(['list', '--settings', settings, '--cwd', dir.root], { env });
    expect(list.stdout).toMatch(/PreToolUse +Bash +command +echo "no rm" >&2; exit 2 +disabled\n/);
    expect(list.stderr).toBe('');
    const json = JSON.parse(runCli(['list', '--json', '--settings', settings, '--cwd', dir.root], { env }).stdout);
    expect(json.map((h: { enabled: boolean }) => h.enabled)).toEqual([false, true]);
    const payload = JSON.stringify({ hook_event_name: 'PreToolUse', ...INPUT });
    const on = runCli(['dispatch', '--agent', 'claude', '--settings', settingsWith(DENY, 'on.json')], { input: payload, env });
    expect(on.stdout).toContain('"permissionDecision":"deny"');
    const off = runCli(['dispatch', '--agent', 'claude', '--settings', settings], { input: payload, env });
    expect([off.code, off.stdout, off.stderr]).toEqual([0, '', '']);
  });

  test('the trust report (the TUI and the panel) carries the switch', async () => {
    dir.json('ws/.claude/settings.json', {
      hooks: {
        PreToolUse: [
          {
            hooks: [
              { ...DENY, enabled: false },
              { type: 'command', command: 'true' },
            ],
          },
        ],
      },
    });
    const ws = dir.path('ws');
    const { trust } = await loadTrustedConfig({ cwd: ws, projectDir: ws, discover: true, homeDir: dir.path('home') }, { workspaceDir: ws });
    expect(trust.hooks.map((h) => h.enabled)).toEqual([false, true]);
  });

  test('convert keeps it for Claude with a warning, and leaves it out of another agent', async () => {
    const text = JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ ...DENY, enabled: false }] }] } });
    const claude = await convertText('s.json', text, { from: 'claude', to: 'claude' });
    expect(JSON.parse(claude.text).hooks.PreToolUse[0].hooks[0].enabled).toBe(false);
    expect(claude.diagnostics.map((d) => d.message)).toEqual([
      expect.stringMatching(/Claude Code itself has no per-hook switch and runs this hook/),
    ]);
    const gemini = await convertText('s.json', text, { from: 'claude', to: 'gemini' });
    expect(gemini.text).not.toContain('no rm');
    expect(gemini.losses).toEqual([
      expect.objectContaining({
        scope: 'hook',
        message: expect.stringMatching(/Gemini CLI has no per-hook switch, so the disabled hook is left out/),
      }),
    ]);
  });
});

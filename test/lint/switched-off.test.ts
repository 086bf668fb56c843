/**
 * `"enabled": false` in a file an agent reads itself (issue 42, item 5): no agent has a per-hook
 * switch, so the agent runs the hook there. Every surface says so — the library's diagnostics,
 * `check`, `doctor`, `run`, `list`, `dispatch`'s stderr — naming the agent; a file only
 * agent-hooks reads (the --settings of `install`) gets no warning, and the hook stays off.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { useTempDir } from '../helpers/tmp.js';

requireBuiltCli();
const dir = useTempDir();

const OFF = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'exit 2', enabled: false }] }] } };
const SAYS =
  /"enabled": false is honoured by agent-hooks only .*: Claude Code reads this file itself, has no per-hook switch and runs this hook/;
const PAYLOAD = JSON.stringify({
  hook_event_name: 'PreToolUse',
  session_id: 's',
  transcript_path: '',
  tool_name: 'Bash',
  tool_input: { command: 'ls' },
});

const cli = (args: string[], input?: string) => {
  const r = runCli(args, { cwd: dir.root, env: { ...process.env, HOME: dir.path('home'), NO_COLOR: '1' }, ...(input ? { input } : {}) });
  return { code: r.code, out: `${r.stdout}${r.stderr}`, stdout: r.stdout };
};

async function diagnostics(files: string[], dialect?: 'droid') {
  const config = await loadConfig({
    cwd: dir.root,
    projectDir: dir.root,
    homeDir: dir.path('home'),
    discover: false,
    settingsFiles: files,
    ...(dialect ? { dialect } : {}),
  });
  return config.diagnostics.map((d) => d.message);
}

describe('"enabled": false where the agent itself would run the hook', () => {
  it("warns on every surface for the agent's own file; the hook stays off in agent-hooks", () => {
    const own = dir.json('.claude/settings.json', OFF);
    expect(cli(['check', own]).out).toMatch(SAYS);
    expect(cli(['doctor', '--settings', own, '--cwd', dir.root]).out).toMatch(SAYS);
    expect(cli(['list', '--settings', own, '--cwd', dir.root]).out).toMatch(SAYS);
    const run = cli(['run', 'PreToolUse', '--settings', own, '--tool', 'Bash', '--input', '{"command":"ls"}']);
    expect(run.out).toMatch(SAYS);
    expect(run.code).toBe(0);
    const dispatch = cli(['dispatch', '--agent', 'claude', '--settings', own, '--cwd', dir.root], PAYLOAD);
    expect([dispatch.code, dispatch.stdout]).toEqual([0, '']);
    expect(dispatch.out).toMatch(SAYS);
  });

  it('warns for a discovered project file, names another agent for its file, and is quiet for a file only agent-hooks reads', async () => {
    dir.json('.claude/settings.json', OFF);
    const config = await loadConfig({ cwd: dir.root, projectDir: dir.root, homeDir: dir.path('home'), unsafeSkipTrustGate: true });
    expect(config.diagnostics.map((d) => d.message)).toEqual([expect.stringMatching(SAYS)]);
    expect(await diagnostics([dir.json('.factory/settings.json', OFF)], 'droid')).toEqual([
      expect.stringContaining('Factory Droid reads this file itself'),
    ]);
    expect(await diagnostics([dir.json('guard.json', OFF)])).toEqual([]);
    expect(cli(['run', 'PreToolUse', '--settings', dir.path('guard.json'), '--tool', 'Bash', '--input', '{}']).code).toBe(0);
  });
});

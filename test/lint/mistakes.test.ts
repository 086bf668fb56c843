/**
 * Every silent mistake reaches every surface (issue 42, item 3): the shared lint
 * (src/lint/hooks.ts) runs in loadConfig, so the library's diagnostics, `check`, `doctor`,
 * `run`, `list` and `dispatch`'s stderr all name it; dispatch's answer stays what it was.
 */
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { useTempDir } from '../helpers/tmp.js';

requireBuiltCli();
const dir = useTempDir();

const hook = (extra: Record<string, unknown> = {}) => ({ type: 'command', command: 'exit 0', ...extra });

/** One mistake: the hook group that makes it, and what every surface must say about it. */
const MISTAKES: Array<{ name: string; group: Record<string, unknown>; says: RegExp }> = [
  {
    name: 'invalid regex matcher',
    group: { matcher: 'Bash(', hooks: [hook()] },
    says: /matcher "Bash\(" is not a valid regular expression/,
  },
  {
    name: 'case-only tool name',
    group: { matcher: 'bash', hooks: [hook()] },
    says: /matcher "bash" never matches the tool "Bash": tool names are case-sensitive/,
  },
  {
    name: 'MCP matcher without a tool',
    group: { matcher: 'mcp__memory', hooks: [hook()] },
    says: /matcher "mcp__memory" names an MCP server but no tool.*"mcp__memory__\.\*"/,
  },
  {
    name: 'timeout in milliseconds',
    group: { matcher: 'Bash', hooks: [hook({ timeout: 30000 })] },
    says: /timeout 30000 is in seconds \(8 h 20 min\); if you meant milliseconds, write 30/,
  },
  { name: 'unknown key', group: { matcher: 'Bash', hooks: [hook({ timout: 3 })] }, says: /"timout" ignored \(did you mean "timeout"\?\)/ },
];

const PAYLOAD = JSON.stringify({
  hook_event_name: 'PreToolUse',
  session_id: 'lint-table',
  transcript_path: '/dev/null',
  tool_name: 'Bash',
  tool_input: { command: 'ls' },
});

type Surface = (settings: string) => Promise<string> | string;

const cli = (args: string[]) => {
  const r = runCli(args, { cwd: dir.root, env: { ...process.env, HOME: dir.root } });
  return `${r.stdout}${r.stderr}`;
};

const SURFACES: Record<string, Surface> = {
  'loadConfig diagnostics': async (settings) => {
    const config = await loadConfig({ cwd: dir.root, projectDir: dir.root, discover: false, settingsFiles: [settings] });
    return config.diagnostics.map((d) => d.message).join('\n');
  },
  check: (s) => cli(['check', s]),
  doctor: (s) => cli(['doctor', '--settings', s, '--cwd', dir.root]),
  run: (s) => cli(['run', 'PreToolUse', '--settings', s, '--cwd', dir.root]),
  list: (s) => cli(['list', '--settings', s, '--cwd', dir.root]),
  dispatch: (s) => {
    const r = runCli(['dispatch', '--agent', 'claude', '--settings', s, '--cwd', dir.root], {
      input: PAYLOAD,
      cwd: dir.root,
      env: { ...process.env, HOME: dir.root },
    });
    // A note, never a changed answer: the hooks all exit 0, so Claude gets the no-op.
    expect([r.code, r.stdout]).toEqual([0, '']);
    return r.stderr;
  },
};

describe.each(Object.entries(SURFACES))('%s', (_surface, read) => {
  test.each(MISTAKES)('reports: $name', async ({ group, says }) => {
    const settings = dir.json('settings.json', { hooks: { PreToolUse: [group] } });
    expect(await read(settings)).toMatch(says);
  });
});

test('the lint reads another agent in its own tool names and timeout unit', async () => {
  const settings = dir.json('gemini.json', {
    hooks: {
      BeforeTool: [
        { matcher: 'Run_shell_command', hooks: [hook()] },
        { matcher: 'run_shell_command', hooks: [hook({ timeout: 30000 })] },
      ],
    },
  });
  const config = await loadConfig({ cwd: dir.root, projectDir: dir.root, discover: false, settingsFiles: [settings], dialect: 'gemini' });
  expect(config.hooks).toHaveLength(2);
  // Gemini's tool is run_shell_command, and its timeouts are milliseconds (30000 = 30 s).
  expect(config.diagnostics.map((d) => `${d.path}: ${d.message}`)).toEqual([
    'hooks.BeforeTool[0].hooks[0]: matcher "Run_shell_command" never matches the tool "run_shell_command": tool names are case-sensitive; write "run_shell_command"',
  ]);
});

/** CLI conventions: colour by NO_COLOR/FORCE_COLOR, aligned `list`, completion in a real bash, --help, did-you-mean, `test --watch`. */
import { describe, expect, it, vi } from 'vitest';

// Each test spawns the CLI many times; on a loaded machine that takes a while.
vi.setConfig({ testTimeout: 120000 });
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { colourEnabled, table } from '../../src/cli/style.js';
import { CLI, requireBuiltCli, runCli } from '../helpers/cli.js';
import { useTempDir } from '../helpers/tmp.js';

const ESC = '\x1b[';

/** Colour is decided by what each test puts in env alone: the caller's NO_COLOR/FORCE_COLOR are dropped. */
function cli(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string) {
  const base = { ...process.env };
  delete base.NO_COLOR;
  delete base.FORCE_COLOR;
  return runCli(args, { cwd, env: { ...base, ...env } });
}

requireBuiltCli();
const dir = useTempDir();

const deny = {
  hooks: {
    PreToolUse: [
      { hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}'` }] },
    ],
  },
};

describe('colour', () => {
  it('is off in a pipe, on with FORCE_COLOR, off with NO_COLOR (which wins) or FORCE_COLOR=0', () => {
    const s = dir.json('s.json', deny);
    const args = ['run', 'PreToolUse', '--settings', s, '--cwd', dir.root];
    expect(cli(args).stdout).not.toContain(ESC);
    const forced = cli(args, { FORCE_COLOR: '1' }).stdout;
    expect(forced).toContain(`${ESC}31mdeny (blocked)`);
    expect(cli(args, { FORCE_COLOR: '1', NO_COLOR: '1' }).stdout).not.toContain(ESC);
    expect(cli(args, { FORCE_COLOR: '0' }).stdout).not.toContain(ESC);
    // --json is never coloured.
    expect(cli([...args, '--json'], { FORCE_COLOR: '1' }).stdout).not.toContain(ESC);
  });

  it('colourEnabled follows the conventions for a TTY', () => {
    expect(colourEnabled({ isTTY: true }, {})).toBe(true);
    expect(colourEnabled({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(colourEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colourEnabled({ isTTY: false }, { FORCE_COLOR: 'true' })).toBe(true);
    expect(colourEnabled({ isTTY: true }, { FORCE_COLOR: 'false' })).toBe(false);
  });
});

describe('list', () => {
  it('aligns columns to their content; a very long matcher is cut and does not shift the rest', () => {
    const long = 'Bash|Write|Edit|MultiEdit|NotebookEdit|mcp__github__create_pull_request|mcp__slack__post';
    const s = dir.json('s.json', {
      hooks: {
        PreToolUse: [
          { matcher: long, hooks: [{ type: 'command', command: 'echo a' }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo b' }] },
        ],
        Stop: [{ hooks: [{ type: 'command', command: 'echo c' }] }],
      },
    });
    const lines = cli(['list', '--settings', s], { NO_COLOR: '1' })
      .stdout.split('\n')
      .filter((l) => !l.startsWith('    '));
    const rows = lines.filter(Boolean);
    expect(rows).toHaveLength(3);
    const col = (l: string, word: string) => l.indexOf(word);
    expect(col(rows[0]!, 'command')).toBe(col(rows[1]!, 'command'));
    expect(col(rows[1]!, 'command')).toBe(col(rows[2]!, 'command'));
    expect(rows[0]).toContain('…');
    expect(rows[0]!.indexOf('command')).toBeLessThan(70);
  });

  it('table() pads every column but the last', () => {
    expect(
      table([
        ['a', 'bb', 'x'],
        ['ccc', 'd', 'y'],
      ]),
    ).toEqual(['a    bb  x', 'ccc  d   y']);
  });
});

describe('completion', () => {
  function complete(line: string[]): string[] {
    const script = cli(['completion', 'bash']).stdout;
    const file = dir.write('c.bash', script);
    const words = line.map((w) => `'${w}'`).join(' ');
    const r = spawnSync(
      'bash',
      ['-c', `source '${file}'; COMP_WORDS=(${words}); COMP_CWORD=${line.length - 1}; _agent_hooks; printf '%s\\n' "\${COMPREPLY[@]}"`],
      { encoding: 'utf8', cwd: dir.root },
    );
    expect(r.status, r.stderr).toBe(0);
    return r.stdout.split('\n').filter(Boolean);
  }

  it('bash: commands, event names after run, flags of the command, values of --event and --failure-behavior', () => {
    expect(complete(['agent-hooks', 'do'])).toEqual(['doctor']);
    expect(complete(['agent-hooks', 'r'])).toEqual(expect.arrayContaining(['run', 'revoke']));
    expect(complete(['agent-hooks', 'run', 'PreT'])).toEqual(['PreToolUse']);
    expect(complete(['agent-hooks', 'run', 'Stop', '--ver'])).toEqual(['--verbose']);
    expect(complete(['agent-hooks', 'run', 'Stop', '--stop'])).toEqual(['--stop-active']);
    expect(complete(['agent-hooks', 'list', '--event', 'Subagent'])).toEqual(['SubagentStart', 'SubagentStop']);
    expect(complete(['agent-hooks', 'run', 'Stop', '--failure-behavior', ''])).toEqual(['ignore', 'ask', 'deny']);
    expect(complete(['agent-hooks', 'doctor', '--j'])).toEqual(['--json']);
  });

  it('bash script registers the function for agent-hooks; zsh wraps it with bashcompinit; fish lists commands, flags and events', () => {
    const file = dir.write('c.bash', cli(['completion', 'bash']).stdout);
    const check = spawnSync('bash', ['-c', `source '${file}'; complete -p agent-hooks`], { encoding: 'utf8' });
    expect(check.stdout).toContain('-F _agent_hooks agent-hooks');
    const zsh = cli(['completion', 'zsh']).stdout;
    expect(zsh.startsWith('#compdef agent-hooks\n')).toBe(true);
    expect(zsh).toContain('bashcompinit');
    const fish = cli(['completion', 'fish']).stdout;
    expect(fish).toContain("complete -c agent-hooks -n '__fish_use_subcommand' -a 'doctor'");
    expect(fish).toContain("-n '__fish_seen_subcommand_from run' -l stop-active");
    expect(fish).toMatch(/__fish_seen_subcommand_from run' -a 'SessionStart .*PreToolUse/);
    const bad = cli(['completion', 'tcsh']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('unknown shell "tcsh" (one of bash, zsh, fish)');
  });
});

describe('--help and names', () => {
  it('each main command shows examples and exit codes', () => {
    for (const c of ['run', 'check', 'doctor', 'list', 'test', 'completion']) {
      const r = cli([c, '--help']);
      expect(r.code, c).toBe(0);
      expect(r.stdout, c).toMatch(/\nExamples:\n {2}\$ \S/);
      expect(r.stdout, c).toMatch(/\nExit codes:\n {2}0 /);
    }
    expect(cli(['run', '--help']).stdout).toContain('3  a hook asked');
    expect(cli(['--help']).stdout).toContain('agent-hooks doctor');
  });

  it('a wrong command or event name gets "did you mean"', () => {
    expect(cli(['doctr']).stderr).toMatch(/unknown command 'doctr'[\s\S]*Did you mean doctor\?/);
    expect(cli(['list', '--event', 'PreTool', '--settings', '{}']).stderr).toContain('(did you mean "PreToolUse"?)');
  });
});

describe('test --watch', () => {
  it('runs, then runs again when a fixture changes', async () => {
    dir.json('s.json', deny);
    const fixture = (decision: string) =>
      writeFileSync(
        dir.path('a.test.json'),
        JSON.stringify({
          defaults: { settings: 's.json' },
          cases: [{ name: 'denies', event: 'PreToolUse', payload: { tool_name: 'Bash', tool_input: {} }, expect: { decision } }],
        }),
      );
    fixture('deny');
    const child = spawn(process.execPath, [CLI, 'test', '--watch', dir.root], { cwd: dir.root, env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const waitFor = async (re: RegExp, ms = 60_000) => {
      const start = Date.now();
      while (!re.test(out)) {
        if (Date.now() - start > ms) throw new Error(`timed out waiting for ${re}; got:\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    try {
      await waitFor(/1 passed[\s\S]*waiting for changes/);
      fixture('allow');
      await waitFor(/1 failed[\s\S]*waiting for changes/);
      expect(out.match(/\[watch\] .* running/g)?.length).toBeGreaterThanOrEqual(2);
    } finally {
      child.kill('SIGTERM');
    }
  }, 120_000);
});

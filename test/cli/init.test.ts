/**
 * `agent-hooks init` on a fresh machine, through the built CLI: the language defaults to one the
 * machine runs (PATH decides), TypeScript is refused where its import cannot resolve, an event
 * that is a prefix or a typo gets a "did you mean", and `--preset` adds a ready-made hook
 * idempotently, whose fixtures then pass in the project.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { useTempDir } from '../helpers/tmp.js';

requireBuiltCli();
const dir = useTempDir();

/** A PATH that holds only the named programs (real ones, linked from the machine's /usr/bin or /bin). */
function pathWith(...programs: string[]): string {
  const bin = dir.path('bin');
  mkdirSync(bin, { recursive: true });
  for (const p of programs) {
    const real = ['/usr/bin', '/bin'].map((d) => `${d}/${p}`).find((f) => existsSync(f));
    if (!real) throw new Error(`${p} is not on this machine`);
    symlinkSync(real, `${bin}/${p}`);
  }
  return bin;
}

const init = (args: string[], PATH?: string) =>
  runCli(['init', '--dir', dir.path('project'), ...args], {
    cwd: dir.root,
    env: PATH === undefined ? process.env : { ...process.env, PATH },
  });

describe('agent-hooks init: a language the machine has', () => {
  it('bash where bash is on PATH', () => {
    const r = init(['guard'], pathWith('bash', 'python3'));
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('language: bash (the first this machine runs; --lang to choose)');
    expect(existsSync(dir.path('project/.claude/hooks/guard.sh'))).toBe(true);
  });

  it('python where there is python3 but no bash', () => {
    const r = init(['guard'], pathWith('python3'));
    expect(r.stdout).toContain('language: python');
    expect(existsSync(dir.path('project/.claude/hooks/guard.py'))).toBe(true);
  });

  it('refuses --lang ts where agent-hooks/sdk does not resolve, with the fix, writing nothing', () => {
    const r = init(['guard', '--lang', 'ts']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^agent-hooks init: --lang ts: the template imports agent-hooks\/sdk, which does not resolve from /);
    expect(r.stderr).toContain('`npm install --save-dev agent-hooks`');
    expect(existsSync(dir.path('project/.claude'))).toBe(false);
  });

  it('an event given by a prefix or a typo: "did you mean", and nothing written', () => {
    const prefix = init(['guard', '--event', 'PreTool']);
    expect(prefix.code).toBe(1);
    expect(prefix.stderr).toBe('agent-hooks init: unknown event "PreTool" (did you mean "PreToolUse"?)\n');
    // "Pre" starts several events: no guess.
    expect(init(['guard', '--event', 'Pre']).stderr).toBe('agent-hooks init: unknown event "Pre"\n');
    expect(init(['guard', '--event', 'Stp']).stderr).toContain('(did you mean "Stop"?)');
    expect(existsSync(dir.path('project/.claude'))).toBe(false);
  });
});

describe('agent-hooks init --preset', () => {
  it('writes the scripts and the settings entry once; a second run changes nothing; the fixtures pass', () => {
    const first = init(['--preset', 'block-destructive']);
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain('wrote project/.claude/hooks/block-destructive.mjs\n');
    expect(first.stdout).toContain('wrote project/.claude/settings.json\n');
    const settings = readFileSync(dir.path('project/.claude/settings.json'), 'utf8');
    expect(init(['--preset', 'block-destructive']).stdout).toContain('preset block-destructive is already installed; nothing to do');
    expect(readFileSync(dir.path('project/.claude/settings.json'), 'utf8')).toBe(settings);
    expect(init(['--preset', 'protect-secrets']).code).toBe(0);
    const hooks = JSON.parse(readFileSync(dir.path('project/.claude/settings.json'), 'utf8')).hooks;
    expect(hooks.PreToolUse.map((g: { matcher: string }) => g.matcher)).toEqual(['Bash', 'Read|Edit|Write|MultiEdit|NotebookEdit|Bash']);
    const t = runCli(['test', '.claude/hooks'], { cwd: dir.path('project') });
    expect(t.stdout).toMatch(/\n14 passed, 0 failed \(2 files, \d+ ms\)\n$/);
    expect(t.code).toBe(0);
  });

  it('an unknown preset gets a "did you mean" and the list; a changed script is not overwritten without --force', () => {
    const bad = init(['--preset', 'block-destructiv']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      'agent-hooks init: unknown preset "block-destructiv" (did you mean "block-destructive"?); presets: block-destructive, block-force-push, code-review, protect-secrets, test-before-stop\n',
    );
    init(['--preset', 'block-force-push']);
    dir.write('project/.claude/hooks/block-force-push.mjs', '// mine\n');
    const refused = init(['--preset', 'block-force-push']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('.claude/hooks/block-force-push.mjs exists with other content (use --force to overwrite)');
    expect(init(['--preset', 'block-force-push', '--force']).code).toBe(0);
    expect(readFileSync(dir.path('project/.claude/hooks/block-force-push.mjs'), 'utf8')).toContain('ALLOW_FORCE_WITH_LEASE');
    expect(init(['--preset', 'block-force-push', 'name']).stderr).toContain('--preset takes no NAME, --lang or --event');
  });
});

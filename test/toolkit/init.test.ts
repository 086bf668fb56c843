/**
 * `agent-hooks init` into a fresh project directory, then `agent-hooks test` on what it wrote.
 * The project gets agent-hooks the way a user's would (node_modules/agent-hooks → this package),
 * so the TypeScript template's `agent-hooks/sdk` import resolves through the package exports.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EVENT_NAMES, catalog } from '../../src/events/catalog.js';
import type { EventSpec } from '../../src/events/spec.js';
import { initHook, InitError, modeFor } from '../../src/toolkit/init.js';
import { runFixtures, reportFailed } from '../../src/toolkit/runner.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDir, useTempDir } from '../helpers/tmp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const cli = (args: string[], cwd: string) => runCli(args, { cwd });

requireBuiltCli();
const dir = useTempDir();
beforeEach(() => {
  mkdirSync(dir.path('node_modules'));
  symlinkSync(ROOT, dir.path('node_modules', 'agent-hooks'), 'dir');
});

const LANGS = ['ts', 'python', 'bash'] as const;

describe('agent-hooks init', () => {
  it('every language: the scaffold passes `agent-hooks test` (one hook per template kind)', async () => {
    const events = ['PreToolUse', 'PermissionRequest', 'Stop', 'UserPromptSubmit', 'Notification'] as const;
    for (const lang of LANGS) {
      for (const event of events) await initHook({ name: `${event.toLowerCase()}-${lang}`, dir: dir.root, lang, event });
    }
    const t = cli(['test', '.claude/hooks'], dir.root);
    expect(t.stdout).toMatch(/\n24 passed, 0 failed \(15 files, \d+ ms\)\n$/);
    expect(t.code).toBe(0);
    // Guard and stop templates really decide (not vacuous passes), in every language.
    for (const lang of LANGS) {
      expect(t.stdout).toContain(`✓ .claude/hooks/pretooluse-${lang}.test.yaml › denies rm -rf`);
      expect(t.stdout).toContain(`✓ .claude/hooks/permissionrequest-${lang}.test.yaml › denies rm -rf`);
      expect(t.stdout).toContain(`✓ .claude/hooks/stop-${lang}.test.yaml › asks the agent to check its work`);
      expect(t.stdout).toContain(`✓ .claude/hooks/userpromptsubmit-${lang}.test.yaml › adds context`);
    }
  });

  it('writes the script, an executable file, and the settings entry the agent runs', async () => {
    const r = await initHook({ name: 'guard', dir: dir.root, lang: 'python' });
    expect(r.written).toEqual([
      dir.path('.claude/hooks/guard.py'),
      dir.path('.claude/hooks/guard.test.yaml'),
      dir.path('.claude/settings.json'),
    ]);
    expect(statSync(r.script).mode & 0o111).not.toBe(0);
    expect(JSON.parse(readFileSync(r.settings, 'utf8'))).toEqual({
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'python3', args: ['${CLAUDE_PROJECT_DIR}/.claude/hooks/guard.py'] }] },
        ],
      },
    });
    expect(readFileSync(r.script, 'utf8')).toMatch(/^#!\/usr\/bin\/env python3\n/);
    // The settings entry works as the agent would run it.
    const run = cli(
      [
        'run',
        'PreToolUse',
        '--settings',
        '.claude/settings.json',
        '--cwd',
        dir.root,
        '--tool',
        'Bash',
        '--input',
        '{"command":"rm -rf /"}',
      ],
      dir.root,
    );
    expect(run.stdout).toContain('PreToolUse: deny (blocked) — guard: refusing to run rm -rf');
    expect(run.code).toBe(2);
  });

  it('merges into existing settings and is idempotent', async () => {
    dir.json('.claude/settings.json', { model: 'x', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } });
    const first = await initHook({ name: 'a', dir: dir.root, lang: 'bash', event: 'Stop' });
    expect(first.updated).toEqual([dir.path('.claude/settings.json')]);
    // The CLI says so: "updated" for the settings it merged into, "created" for new files.
    const out = cli(['init', '--lang', 'bash', '--event', 'Stop', 'b'], dir.root).stdout;
    expect(out).toContain('updated .claude/settings.json');
    expect(out).toContain('created .claude/hooks/b.sh');
    const again = await initHook({ name: 'a', dir: dir.root, lang: 'bash', event: 'Stop', force: true });
    expect(again.written).not.toContain(again.settings);
    const settings = JSON.parse(readFileSync(dir.path('.claude/settings.json'), 'utf8'));
    expect(settings.model).toBe('x');
    expect(settings.hooks.Stop).toHaveLength(3);
  });

  it('refuses to overwrite without --force, bad names, and settings it cannot merge into (writing nothing)', async () => {
    await initHook({ name: 'a', dir: dir.root, lang: 'ts' });
    await expect(initHook({ name: 'a', dir: dir.root, lang: 'ts' })).rejects.toThrow(
      '.claude/hooks/a.mjs already exists (use --force to overwrite)',
    );
    await expect(initHook({ name: '../evil', dir: dir.root })).rejects.toBeInstanceOf(InitError);
    dir.write('.claude/settings.json', '{ "hooks": [,] }');
    await expect(initHook({ name: 'b', dir: dir.root, lang: 'ts' })).rejects.toThrow(/invalid JSON at 1:13.*nothing was written/);
    expect(existsSync(dir.path('.claude/hooks/b.mjs'))).toBe(false);
  });

  it('the CLI reports an unknown event with a hint and accepts any case', () => {
    const bad = cli(['init', '--event', 'PreToolUze', 'x'], dir.root);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('agent-hooks init: unknown event "PreToolUze" (did you mean "PreToolUse"?)');
    const ok = cli(['init', '--event', 'sessionstart', '--lang', 'bash', 'x'], dir.root);
    expect(ok.code).toBe(0);
    expect(readFileSync(dir.path('.claude/hooks/x.sh'), 'utf8')).toContain('"hookEventName":"SessionStart"');
  });

  it('refuses the ts template where agent-hooks/sdk does not resolve, writing nothing', async () => {
    const bare = tempDir();
    try {
      await expect(initHook({ name: 'a', dir: bare.root, lang: 'ts' })).rejects.toThrow(
        /--lang ts: the template imports agent-hooks\/sdk, which does not resolve from .*; install it there first .*nothing was written$/,
      );
      expect(existsSync(bare.path('.claude'))).toBe(false);
    } finally {
      bare.cleanup();
    }
  });

  it('every event that runs command hooks gets a template whose fixtures pass (bash)', async () => {
    const events = EVENT_NAMES.filter((e) => {
      const t = (catalog[e] as EventSpec).hookTypes;
      return !t || t.includes('command');
    });
    for (const event of events) await initHook({ name: `e-${event}`, dir: dir.root, lang: 'bash', event });
    const report = await runFixtures([dir.path('.claude/hooks')]);
    const failures = report.files.flatMap((f) => [
      ...f.errors.map((e) => `${f.file}: ${e.path}: ${e.message}`),
      ...f.cases.filter((c) => c.status !== 'passed').map((c) => `${c.name}: ${JSON.stringify(c.mismatches)} ${c.error ?? ''}`),
    ]);
    expect(failures).toEqual([]);
    expect(reportFailed(report)).toBe(false);
    expect(new Set(events.map(modeFor))).toEqual(new Set(['guard', 'stop', 'context', 'observe']));
  });
});

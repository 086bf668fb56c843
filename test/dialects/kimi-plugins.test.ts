/**
 * Kimi Code plugin hooks: an enabled plugin in `$KIMI_CODE_HOME/plugins/installed.json` whose
 * manifest (`kimi.plugin.json`, else `.kimi-plugin/plugin.json`) has a `hooks` array of
 * `[[hooks]]`-shaped rules. Fixture written to the format of Kimi Code's plugin store and
 * manifest reader (MoonshotAI/kimi-code packages/agent-core/src/plugin/store.ts, manifest.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { kimiPluginManifests } from '../../src/agents/kimi/facts.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { runCli } from './cli.js';

let dir: TempDir;
let kimiHome: string;
let guardRoot: string;
beforeAll(() => {
  dir = tempDir('agent-hooks-kimi-plugins-');
  kimiHome = dir.path('home', '.kimi-code');
  guardRoot = join(kimiHome, 'plugins', 'managed', 'guard');
  dir.write('proj/.keep', '');
  const offRoot = join(kimiHome, 'plugins', 'managed', 'off');
  const dirRoot = join(kimiHome, 'plugins', 'managed', 'dirstyle');
  dir.json('home/.kimi-code/plugins/installed.json', {
    version: 1,
    plugins: [
      { id: 'guard', root: guardRoot, source: 'local-path', enabled: true, installedAt: '2026-11-01T00:00:00Z' },
      { id: 'off', root: offRoot, source: 'local-path', enabled: false, installedAt: '2026-11-01T00:00:00Z' },
      { id: 'dirstyle', root: dirRoot, source: 'github', enabled: true, installedAt: '2026-11-01T00:00:00Z' },
    ],
  });
  // The hook records where it ran and what it was told, then blocks (exit 2, reason on stderr).
  dir.write(
    'home/.kimi-code/plugins/managed/guard/hooks/check.mjs',
    `import { writeFileSync } from 'node:fs';
process.stdin.resume(); process.stdin.on('end', () => {
  writeFileSync(process.cwd() + '/ran.json', JSON.stringify({ cwd: process.cwd(), root: process.env.KIMI_PLUGIN_ROOT, home: process.env.KIMI_CODE_HOME }));
  process.stderr.write('blocked by the guard plugin'); process.exit(2);
});`,
  );
  dir.json('home/.kimi-code/plugins/managed/guard/kimi.plugin.json', {
    name: 'guard',
    version: '1.0.0',
    hooks: [
      { event: 'PreToolUse', matcher: 'Bash', command: 'node ./hooks/check.mjs', timeout: 5 },
      { event: 'PreToolUse', command: 'echo bad', colour: 'red' },
    ],
  });
  dir.json('home/.kimi-code/plugins/managed/guard/.kimi-plugin/plugin.json', {
    name: 'guard',
    hooks: [{ event: 'Stop', command: 'echo shadowed' }],
  });
  dir.json('home/.kimi-code/plugins/managed/off/kimi.plugin.json', {
    name: 'off',
    hooks: [{ event: 'PreToolUse', command: 'echo disabled' }],
  });
  dir.json('home/.kimi-code/plugins/managed/dirstyle/.kimi-plugin/plugin.json', {
    name: 'dirstyle',
    hooks: [{ event: 'Stop', command: 'echo dir-manifest' }],
  });
});
afterAll(() => dir.cleanup());

describe('Kimi Code plugin manifests', () => {
  test('only enabled plugins; kimi.plugin.json wins over .kimi-plugin/plugin.json', () => {
    expect(kimiPluginManifests(kimiHome)).toEqual([
      join(guardRoot, 'kimi.plugin.json'),
      join(kimiHome, 'plugins', 'managed', 'dirstyle', '.kimi-plugin', 'plugin.json'),
    ]);
    expect(kimiPluginManifests(dir.path('nowhere'))).toEqual([]);
  });

  test('loadConfig reads their hooks as Kimi hooks; an invalid entry is skipped with a warning, the rest load', async () => {
    const prev = process.env.KIMI_CODE_HOME;
    process.env.KIMI_CODE_HOME = kimiHome;
    try {
      const proj = dir.path('proj');
      const c = await loadConfig({
        cwd: proj,
        projectDir: proj,
        homeDir: dir.path('home'),
        managedSettingsPath: dir.path('none.json'),
        discoverDialects: ['kimi'],
        unsafeSkipTrustGate: true,
      });
      const kimiHooks = c.hooks.filter((h) => h.dialect === 'kimi');
      expect(kimiHooks.map((h) => [h.event, (h.handler as { command: string }).command])).toEqual([
        ['PreToolUse', `cd '${guardRoot}' && node ./hooks/check.mjs`],
        ['Stop', `cd '${join(kimiHome, 'plugins', 'managed', 'dirstyle')}' && echo dir-manifest`],
      ]);
      expect((kimiHooks[0]!.handler as { env?: Record<string, string> }).env).toEqual({
        KIMI_PLUGIN_ROOT: guardRoot,
        KIMI_CODE_HOME: kimiHome,
      });
      const warning = c.diagnostics.find((d) => d.file === join(guardRoot, 'kimi.plugin.json'));
      expect(warning?.level).toBe('warning');
      expect(warning?.message).toContain('Kimi Code skips this plugin hook');
      expect(c.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
    } finally {
      if (prev === undefined) delete process.env.KIMI_CODE_HOME;
      else process.env.KIMI_CODE_HOME = prev;
    }
  });

  test('dispatch runs a plugin hook in the plugin root with KIMI_PLUGIN_ROOT and KIMI_CODE_HOME, and its block holds', async () => {
    const payload = {
      session_id: 's',
      transcript_path: '',
      cwd: dir.path('proj'),
      hook_event_name: 'PreToolUse',
      permission_mode: 'default',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_use_id: 't1',
    };
    const r = await runCli(
      ['dispatch', '--agent', 'claude', '--discover-dialects', 'kimi', '--cwd', dir.path('proj')],
      JSON.stringify(payload),
      {
        env: { PATH: process.env.PATH, HOME: dir.path('home'), KIMI_CODE_HOME: kimiHome },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer.hookSpecificOutput).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: 'blocked by the guard plugin',
    });
    const ran = JSON.parse(readFileSync(join(guardRoot, 'ran.json'), 'utf8'));
    expect(ran).toEqual({ cwd: guardRoot, root: guardRoot, home: kimiHome });
  });
});

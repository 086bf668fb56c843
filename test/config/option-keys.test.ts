/**
 * loadConfig refuses options it does not know: `settingFiles` for `settingsFiles` loaded nothing
 * and said nothing (issue 38). A typo in the caller's own options rejects with a TypeError naming
 * it and the closest known key; problems of the files it reads stay diagnostics.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { loadConfig, type LoadConfigOptions } from '../../src/config/load.js';
import { LOAD_CONFIG_OPTION_KEYS } from '../../src/config/options.js';
import { loadTrustedConfig, TRUST_OPTION_KEYS } from '../../src/trust/load.js';
import type { TrustOptions } from '../../src/trust/types.js';
import { useTempDir } from '../helpers/tmp.js';

const dir = useTempDir();

const guard = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'exit 2' }] }] } };

describe('loadConfig options', () => {
  it('a misspelled option rejects with a TypeError naming it and the closest known one', async () => {
    const file = dir.json('guard.json', guard);
    await expect(loadConfig({ cwd: dir.root, discover: false, settingFiles: [file] } as never)).rejects.toThrow(
      new TypeError('loadConfig: unknown option "settingFiles" (did you mean "settingsFiles"?)'),
    );
  });

  it('the objects inside the options are checked too: trust, plugins[i], skills[i]', async () => {
    await expect(loadConfig({ cwd: dir.root, trust: { workspaceTrust: true } } as never)).rejects.toThrow(
      /unknown option "trust\.workspaceTrust" \(did you mean "trust\.workspaceTrusted"\?\)/,
    );
    await expect(loadConfig({ cwd: dir.root, discover: false, plugins: ['/p', { rot: '/q' }] } as never)).rejects.toThrow(
      /unknown option "plugins\[1\]\.rot" \(did you mean "plugins\[1\]\.root"\?\)/,
    );
    await expect(loadConfig({ cwd: dir.root, discover: false, skills: [{ path: '/x', hooks: {} }] } as never)).rejects.toThrow(
      /unknown option "skills\[0\]\.path" \(known: skills\[0\]\.root, /,
    );
  });

  it('the correctly spelled call loads the hooks', async () => {
    const file = dir.json('guard.json', guard);
    const c = await loadConfig({ cwd: dir.root, discover: false, settingsFiles: [file] });
    expect(c.diagnostics).toEqual([]);
    expect(c.hooks.map((h) => h.event)).toEqual(['PreToolUse']);
  });

  it('every key of LoadConfigOptions is accepted (the list is the interface)', async () => {
    expectTypeOf<keyof typeof LOAD_CONFIG_OPTION_KEYS>().toEqualTypeOf<keyof LoadConfigOptions>();
    const everyKey = Object.fromEntries(Object.keys(LOAD_CONFIG_OPTION_KEYS).map((k) => [k, undefined]));
    const c = await loadConfig({ ...everyKey, cwd: dir.root, discover: false } as LoadConfigOptions);
    expect(c.diagnostics).toEqual([]);
    const full = await loadConfig({
      cwd: dir.root,
      discover: false,
      trust: { storePath: dir.path('store.json'), workspaceTrusted: false },
      plugins: [{ root: dir.path('plugin'), name: 'p', id: 'p@local', dataDir: dir.path('data'), managed: false }],
      skills: [{ root: dir.path('skill'), name: 's', file: dir.path('skill/SKILL.md'), hooks: {}, agent: false }],
    });
    expect(full.diagnostics.filter((d) => /unknown|options\./.test(`${d.path} ${d.message}`))).toEqual([]);
  });

  it('loadTrustedConfig refuses an unknown trust option, and accepts every key of TrustOptions', async () => {
    await expect(loadTrustedConfig({ cwd: dir.root, discover: false }, { storepath: dir.path('s.json') } as never)).rejects.toThrow(
      new TypeError('loadTrustedConfig: unknown option "trustOptions.storepath" (did you mean "trustOptions.storePath"?)'),
    );
    expectTypeOf<keyof typeof TRUST_OPTION_KEYS>().toEqualTypeOf<keyof TrustOptions>();
    const everyKey = Object.fromEntries(Object.keys(TRUST_OPTION_KEYS).map((k) => [k, undefined]));
    const file = dir.json('guard.json', guard);
    const r = await loadTrustedConfig({ cwd: dir.root, discover: false, settingsFiles: [file] }, everyKey);
    expect(r.config.hooks.map((h) => h.event)).toEqual(['PreToolUse']);
  });
});

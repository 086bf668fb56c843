import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultTrustStorePath, readTrustStore, TrustStoreError, updateTrustStore } from '../../src/trust/store.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';

let dir: TempDir;
let store: string;
beforeEach(() => {
  dir = tempDir('agent-hooks-store-');
  store = dir.path('cfg', 'agent-hooks', 'trust.json');
});
afterEach(() => dir.cleanup());

const record = (path: string) => ({ path, workspaceTrustedAt: '2020-01-01T00:00:00.000Z' });

describe('trust store location', () => {
  it('env override, then XDG_CONFIG_HOME, then ~/.config', () => {
    expect(defaultTrustStorePath({ AGENT_HOOKS_TRUST_STORE: '/x/t.json', XDG_CONFIG_HOME: '/xdg' }, '/home/u')).toBe('/x/t.json');
    expect(defaultTrustStorePath({ XDG_CONFIG_HOME: '/xdg' }, '/home/u')).toBe('/xdg/agent-hooks/trust.json');
    expect(defaultTrustStorePath({ XDG_CONFIG_HOME: 'relative' }, '/home/u')).toBe('/home/u/.config/agent-hooks/trust.json');
    expect(defaultTrustStorePath({}, '/home/u')).toBe('/home/u/.config/agent-hooks/trust.json');
  });
});

describe('reading and writing', () => {
  it('a missing store is empty; a write creates directory 0700 and file 0600 atomically', async () => {
    expect(await readTrustStore(store)).toEqual({ version: 1, workspaces: {} });
    await updateTrustStore(store, (d) => {
      d.workspaces['dir:/a'] = record('/a');
    });
    expect(statSync(store).mode & 0o777).toBe(0o600);
    expect(statSync(join(store, '..')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(store, 'utf8')).workspaces['dir:/a'].path).toBe('/a');
    // no temp file or lock left behind
    expect(readdirSync(join(store, '..'))).toEqual(['trust.json']);
  });

  it('an existing 0644 store is rewritten 0600', async () => {
    mkdirSync(join(store, '..'), { recursive: true, mode: 0o700 });
    writeFileSync(store, JSON.stringify({ version: 1, workspaces: {} }), { mode: 0o644 });
    chmodSync(store, 0o644);
    await updateTrustStore(store, () => undefined);
    expect(statSync(store).mode & 0o777).toBe(0o600);
  });

  it('concurrent updates are serialized by the lock: none is lost', async () => {
    await Promise.all(
      Array.from({ length: 8 }, (_v, i) =>
        updateTrustStore(store, (d) => {
          d.workspaces[`dir:/w${i}`] = record(`/w${i}`);
        }),
      ),
    );
    expect(Object.keys((await readTrustStore(store)).workspaces)).toHaveLength(8);
  });

  it('a throwing mutation writes nothing', async () => {
    await updateTrustStore(store, (d) => {
      d.workspaces['dir:/a'] = record('/a');
    });
    await expect(
      updateTrustStore(store, (d) => {
        delete d.workspaces['dir:/a'];
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(Object.keys((await readTrustStore(store)).workspaces)).toEqual(['dir:/a']);
  });
});

describe('refusals', () => {
  async function expectRefused(fn: () => Promise<unknown>, pattern: RegExp) {
    const err = await fn().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TrustStoreError);
    expect((err as Error).message).toMatch(pattern);
  }

  it('a symlinked store file is refused, for reads and writes, and its target is left alone', async () => {
    mkdirSync(join(store, '..'), { recursive: true, mode: 0o700 });
    const target = dir.write('elsewhere.json', JSON.stringify({ version: 1, workspaces: {} }));
    symlinkSync(target, store);
    await expectRefused(() => readTrustStore(store), /is a symlink; refusing/);
    await expectRefused(() => updateTrustStore(store, () => undefined), /is a symlink; refusing/);
    expect(readFileSync(target, 'utf8')).toBe(JSON.stringify({ version: 1, workspaces: {} }));
  });

  it('a symlinked store directory is refused', async () => {
    mkdirSync(dir.path('real'), { mode: 0o700 });
    mkdirSync(dir.path('cfg'));
    symlinkSync(dir.path('real'), dir.path('cfg', 'agent-hooks'));
    await expectRefused(() => readTrustStore(store), /directory .* is a symlink/);
    await expectRefused(() => updateTrustStore(store, () => undefined), /directory .* is a symlink/);
    expect(existsSync(dir.path('real', 'trust.json'))).toBe(false);
  });

  it('a group- or world-writable store file or directory is refused with the fix', async () => {
    mkdirSync(join(store, '..'), { recursive: true, mode: 0o700 });
    writeFileSync(store, JSON.stringify({ version: 1, workspaces: {} }));
    chmodSync(store, 0o620);
    await expectRefused(() => readTrustStore(store), /group- or world-writable \(mode 0620\).*chmod go-w/);
    chmodSync(store, 0o602);
    await expectRefused(() => updateTrustStore(store, () => undefined), /world-writable \(mode 0602\)/);
    chmodSync(store, 0o600);
    chmodSync(join(store, '..'), 0o770);
    await expectRefused(() => readTrustStore(store), /directory .* group- or world-writable/);
  });

  it('corrupt, malformed or newer stores are refused, never overwritten', async () => {
    mkdirSync(join(store, '..'), { recursive: true, mode: 0o700 });
    writeFileSync(store, '{ nope', { mode: 0o600 });
    await expectRefused(() => updateTrustStore(store, () => undefined), /not valid JSON.*fix or remove it/);
    expect(readFileSync(store, 'utf8')).toBe('{ nope');
    writeFileSync(store, JSON.stringify({ version: 1, workspaces: { x: { path: 1 } } }));
    await expectRefused(() => readTrustStore(store), /malformed at workspaces\.x\.path/);
    writeFileSync(store, JSON.stringify({ version: 2, workspaces: {} }));
    await expectRefused(() => readTrustStore(store), /version 2/);
  });

  it('a store that is a directory is refused', async () => {
    mkdirSync(store, { recursive: true });
    chmodSync(join(store, '..'), 0o700);
    await expectRefused(() => readTrustStore(store), /not a regular file|EISDIR/);
  });
});

describe('the built reader, which accepts with the compiled validator, reads what zod reads', () => {
  // From the sources no compiled validator is found, so zod reads every store; the built module
  // finds dist/validators/trustStore.cjs and uses an accepted document as it is.
  const built = new URL('../../dist/trust/store.js', import.meta.url);
  const digest = `sha256:${'a'.repeat(64)}`;
  const hooks = { digest, trustedAt: 'now', config: { version: 1, hooks: [], settings: [], scripts: {}, extra: true } };
  const cases: Array<[string, string]> = [
    ['a store as we write it', JSON.stringify({ version: 1, workspaces: { 'dir:/p': { ...record('/p'), hooks } } })],
    // zod strips unknown keys of the store, a record and its hooks (the config keeps its own).
    [
      'unknown keys',
      JSON.stringify({ version: 1, more: 1, workspaces: { 'dir:/p': { ...record('/p'), note: 'x', hooks: { ...hooks, by: 'me' } } } }),
    ],
    // An own `__proto__` key, spelt with an escape: JSON.parse keeps it, zod's copy does not.
    [
      'an escaped __proto__ key',
      `{"version":1,"workspaces":{"\\u005f_proto__":${JSON.stringify(record('/evil'))},"dir:/p":${JSON.stringify(record('/p'))}}}`,
    ],
    [
      'a __proto__ key inside the config',
      JSON.stringify({ version: 1, workspaces: { 'dir:/p': { ...record('/p'), hooks } } }).replace('"extra"', '"__proto__"'),
    ],
  ];
  it.each(cases)('%s', async (_, text) => {
    if (!existsSync(built)) throw new Error('dist/ is missing: run npm run build');
    const dist = (await import(built.href)) as typeof import('../../src/trust/store.js');
    mkdirSync(join(store, '..'), { recursive: true, mode: 0o700 });
    writeFileSync(store, text, { mode: 0o600 });
    const fromZod = await readTrustStore(store);
    const fromDist = await dist.readTrustStore(store);
    expect(fromDist).toEqual(fromZod);
    expect(Object.keys(fromDist.workspaces)).toEqual(Object.keys(fromZod.workspaces));
    expect(Object.keys(fromDist.workspaces)).not.toContain('__proto__');
  });
});

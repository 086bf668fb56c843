/**
 * The session counter file of dispatch (src/engine/session-file-store.ts) on real files: semantics
 * across store instances (each stands for a dispatch process), modes and hashed names, refusal of
 * an unsafe directory with its warning and memory fallback, corrupt files, the bounds, and
 * atomic updates from many real processes at once.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  defaultSessionStateDir,
  fileCounterStore,
  sessionCounterStoreFor,
  sessionFileName,
  type FileCounterStoreOptions,
} from '../../src/engine/session-file-store.js';
import { requireBuiltCli } from '../helpers/cli.js';
import { useTempDir } from '../helpers/tmp.js';

const tmp = useTempDir('ah-counters-');
const inc = (v: number) => v + 1;

function store(extra: FileCounterStoreOptions = {}) {
  const warnings: string[] = [];
  const s = fileCounterStore({ dir: tmp.path('state', 'sessions'), onWarning: (m) => warnings.push(m), ...extra });
  return { s, warnings };
}
const sessionFiles = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.json'));

describe('file counter store', () => {
  it('reads 0 when unset, returns the previous value, and every new store (process) sees the last write', async () => {
    const a = store().s;
    expect(a.read('s1', 'Stop')).toBe(0);
    expect(await a.update('s1', 'Stop', inc)).toBe(0);
    expect(await a.update('s1', 'Stop', inc)).toBe(1);
    const b = store().s;
    expect(b.read('s1', 'Stop')).toBe(2);
    expect(b.read('s2', 'Stop')).toBe(0);
    expect(await b.update('s1', 'once\0hook-a', () => 1)).toBe(0);
    expect(await store().s.update('s1', 'once\0hook-a', () => 1)).toBe(1);
    // Writing 0 removes the counter; a file left with none is deleted.
    expect(await b.update('s1', 'Stop', () => 0)).toBe(2);
    expect(store().s.read('s1', 'Stop')).toBe(0);
    expect(await b.update('s1', 'once\0hook-a', () => 0)).toBe(1);
    expect(sessionFiles(tmp.path('state', 'sessions'))).toEqual([]);
  });

  it('creates the directory 0700 (not for an update that keeps 0) and each file 0600, named by the SHA-256 of the session id', async () => {
    const { s } = store();
    const id = '../../etc/passwd';
    expect(await s.update(id, 'Stop', () => 0)).toBe(0);
    expect(existsSync(tmp.path('state'))).toBe(false);
    await s.update(id, 'Stop', inc);
    const dir = tmp.path('state', 'sessions');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(tmp.path('state')).mode & 0o777).toBe(0o700);
    const hex = createHash('sha256').update(id).digest('hex');
    expect(sessionFileName(id)).toBe(`${hex}.json`);
    expect(readdirSync(dir).sort()).toEqual(['.pruned', `${hex}.json`]);
    for (const name of readdirSync(dir)) expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, `${hex}.json`), 'utf8'))).toEqual({ version: 1, counters: { Stop: 1 } });
  });

  it('refuses a symlinked directory with a warning, keeps counting in memory, and writes nothing through the link', async () => {
    mkdirSync(tmp.path('elsewhere'), { mode: 0o700 });
    mkdirSync(tmp.path('state'));
    symlinkSync(tmp.path('elsewhere'), tmp.path('state', 'sessions'));
    const { s, warnings } = store();
    expect(await s.update('s1', 'Stop', inc)).toBe(0);
    expect(await s.update('s1', 'Stop', inc)).toBe(1);
    expect(s.read('s1', 'Stop')).toBe(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/is a symlink; refusing it/);
    expect(readdirSync(tmp.path('elsewhere'))).toEqual([]);
  });

  it('refuses a world-writable directory, and leaves a planted session file unread', async () => {
    const dir = tmp.path('state', 'sessions');
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o777);
    // What another local user could plant to make the Stop cap already reached.
    writeFileSync(join(dir, sessionFileName('s1')), JSON.stringify({ version: 1, counters: { Stop: 99 } }), { mode: 0o600 });
    const { s, warnings } = store();
    expect(s.read('s1', 'Stop')).toBe(0);
    expect(await s.update('s1', 'Stop', inc)).toBe(0);
    expect(s.read('s1', 'Stop')).toBe(1);
    expect(warnings).toEqual([expect.stringMatching(/group- or world-writable.*refusing it/)]);
    expect(JSON.parse(readFileSync(join(dir, sessionFileName('s1')), 'utf8')).counters.Stop).toBe(99);
  });

  it.runIf(process.getuid?.() === 0)('refuses a directory owned by another user', async () => {
    const dir = tmp.path('state', 'sessions');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chownSync(dir, 65534, 65534);
    const { s, warnings } = store();
    expect(await s.update('s1', 'Stop', inc)).toBe(0);
    expect(warnings).toEqual([expect.stringMatching(/owned by uid 65534, not by you/)]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('reads a corrupt, foreign-shaped or group-writable file as empty with one warning, and an update replaces it', async () => {
    const { s, warnings } = store();
    await s.update('seed', 'Stop', inc);
    const dir = tmp.path('state', 'sessions');
    const bad = {
      garbage: '{"version":1,"coun',
      shape: JSON.stringify({ version: 1, counters: { Stop: 'many' } }),
      version: JSON.stringify({ version: 2, counters: {} }),
    };
    for (const [id, text] of Object.entries(bad)) writeFileSync(join(dir, sessionFileName(id)), text, { mode: 0o600 });
    writeFileSync(join(dir, sessionFileName('loose')), JSON.stringify({ version: 1, counters: { Stop: 5 } }));
    chmodSync(join(dir, sessionFileName('loose')), 0o666);
    mkdirSync(join(dir, sessionFileName('dir')));
    for (const id of [...Object.keys(bad), 'loose', 'dir']) expect(s.read(id, 'Stop')).toBe(0);
    expect(warnings).toHaveLength(5);
    for (const w of warnings) expect(w).toMatch(/is unusable \(.+\); reading it as empty/);
    expect(await s.update('garbage', 'Stop', inc)).toBe(0);
    expect(await s.update('garbage', 'Stop', inc)).toBe(1);
    expect(store().s.read('garbage', 'Stop')).toBe(2);
    expect(warnings).toHaveLength(5);
  });

  it('keeps at most maxKeys counters per session, dropping the oldest', async () => {
    const { s, warnings } = store({ maxKeys: 3 });
    for (const k of ['a', 'b', 'c', 'd', 'e']) await s.update('s1', k, () => 1);
    const fresh = store().s;
    expect(['a', 'b', 'c', 'd', 'e'].map((k) => fresh.read('s1', k))).toEqual([0, 0, 1, 1, 1]);
    expect(warnings).toEqual([expect.stringMatching(/holds over 3 counters/)]);
  });

  it('prunes the files older than maxAgeMs and the oldest beyond maxSessions, at most once per interval', async () => {
    const dir = tmp.path('state', 'sessions');
    const seed = store().s;
    for (let i = 0; i < 6; i++) await seed.update(`s${i}`, 'Stop', inc);
    const now = Date.now() / 1000;
    // s0 is two days old; s1..s5 one to five minutes old, s5 the oldest of them.
    const ages = [2 * 86_400, 60, 120, 180, 240, 300];
    for (const [i, age] of ages.entries()) utimesSync(join(dir, sessionFileName(`s${i}`)), now - age, now - age);
    writeFileSync(join(dir, 'x.json.1.abc.tmp'), '');
    utimesSync(join(dir, 'x.json.1.abc.tmp'), now - 3600, now - 3600);
    // The marker says pruning ran a minute ago: an hourly store does not prune yet.
    utimesSync(join(dir, '.pruned'), now - 60, now - 60);
    await store({ maxSessions: 3, maxAgeMs: 86_400_000 }).s.update('new', 'Stop', inc);
    expect(sessionFiles(dir)).toHaveLength(7);
    await store({ maxSessions: 3, maxAgeMs: 86_400_000, pruneIntervalMs: 30_000 }).s.update('new', 'Stop', inc);
    const left = sessionFiles(dir).sort();
    expect(left).toEqual(['new', 's1', 's2'].map(sessionFileName).sort());
    expect(existsSync(join(dir, 'x.json.1.abc.tmp'))).toBe(false);
  });

  it('takes over a lock file left by a crashed process once it is stale', async () => {
    const { s } = store({ lockStaleMs: 200 });
    await s.update('s1', 'Stop', inc);
    const lockFile = tmp.path('state', 'sessions', sessionFileName('s1').replace('.json', '.lock'));
    writeFileSync(lockFile, '');
    const started = Date.now();
    expect(await s.update('s1', 'Stop', inc)).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(existsSync(lockFile)).toBe(false);
  });

  it('lives under $XDG_STATE_HOME (absolute only), else ~/.local/state', async () => {
    expect(defaultSessionStateDir({ XDG_STATE_HOME: '/x/state' }, '/home/u')).toBe('/x/state/agent-hooks/sessions');
    expect(defaultSessionStateDir({ XDG_STATE_HOME: 'rel' }, '/home/u')).toBe('/home/u/.local/state/agent-hooks/sessions');
    expect(defaultSessionStateDir({}, '/home/u')).toBe('/home/u/.local/state/agent-hooks/sessions');
    const s = sessionCounterStoreFor({ env: {}, homeDir: tmp.root });
    await s.update('s1', 'Stop', inc);
    expect(sessionFiles(join(tmp.root, '.local', 'state', 'agent-hooks', 'sessions'))).toEqual([sessionFileName('s1')]);
  });
});

describe('file counter store across processes', () => {
  const MODULE = fileURLToPath(new URL('../../dist/engine/session-file-store.js', import.meta.url));
  requireBuiltCli(MODULE);

  // Each child waits for "go" on stdin, so all of them update at the same moment.
  const child = `
    const { fileCounterStore } = await import(process.argv[1]);
    const s = fileCounterStore({ dir: process.argv[2] });
    process.stdout.write('ready\\n');
    await new Promise((r) => process.stdin.once('data', r));
    for (let i = 0; i < Number(process.argv[3]); i++) await s.update('shared', 'Stop', (v) => v + 1);
  `;

  it('loads node:crypto only once a counter is kept, not with the module or the store', async () => {
    const script = `
      const cryptoLoaded = () => process.moduleLoadList.some((m) => /crypto/.test(m));
      const { fileCounterStore } = await import(process.argv[1]);
      const s = fileCounterStore({ dir: process.argv[2] });
      const before = cryptoLoaded();
      await s.update('s1', 'Stop', (v) => v + 1);
      process.stdout.write(JSON.stringify([before, cryptoLoaded()]));
    `;
    const out = await new Promise<string>((resolve, reject) => {
      const k = spawn(process.execPath, ['--input-type=module', '-e', script, MODULE, tmp.path('s')], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let text = '';
      k.stdout.on('data', (d) => (text += d));
      k.once('error', reject);
      k.once('exit', () => resolve(text));
    });
    expect(JSON.parse(out)).toEqual([false, true]);
  });

  it('12 processes incrementing one counter at once end at exactly their total', async () => {
    const dir = tmp.path('state', 'sessions');
    const N = 12;
    const EACH = 10;
    const kids = Array.from({ length: N }, () =>
      spawn(process.execPath, ['--input-type=module', '-e', child, MODULE, dir, String(EACH)], { stdio: ['pipe', 'pipe', 'inherit'] }),
    );
    try {
      await Promise.all(kids.map((k) => new Promise((r) => k.stdout.once('data', r))));
      for (const k of kids) k.stdin.end('go\n');
      const codes = await Promise.all(kids.map((k) => new Promise((r) => k.once('exit', r))));
      expect(codes).toEqual(Array(N).fill(0));
    } finally {
      for (const k of kids) if (k.exitCode === null) k.kill('SIGKILL');
    }
    expect(fileCounterStore({ dir }).read('shared', 'Stop')).toBe(N * EACH);
    expect(readdirSync(dir).filter((n) => !n.startsWith('.'))).toEqual([sessionFileName('shared')]);
  });
});

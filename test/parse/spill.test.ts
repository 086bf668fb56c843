/**
 * Spill files of over-long outputs: a private per-user directory (0700, owner and mode
 * checked with lstat, a symlink refused), new files only, and a bounded number and age.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
import { capOutputString, defaultSpillDir, OUTPUT_STRING_CAP, SPILL_MAX_FILES } from '../../src/parse/text-cap.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';

const LONG = 'x'.repeat(OUTPUT_STRING_CAP + 5);
let dir: TempDir;
let savedTmp: string | undefined;
beforeEach(() => {
  dir = tempDir('agent-hooks-spill-');
  savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = dir.root;
});
afterEach(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  dir.cleanup();
});

describe('default spill directory', () => {
  it('is per user under TMPDIR, both levels 0700, and holds the full text in a 0600 file', () => {
    const r = capOutputString(LONG);
    expect(r.spilledTo).toBeDefined();
    const expected = defaultSpillDir();
    expect(expected).toBe(join(dir.root, `agent-hooks-${process.getuid!()}`, 'output'));
    expect(r.spilledTo!.startsWith(`${expected}/`)).toBe(true);
    expect(statSync(expected).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir.root, `agent-hooks-${process.getuid!()}`)).mode & 0o777).toBe(0o700);
    expect(statSync(r.spilledTo!).mode & 0o777).toBe(0o600);
    expect(readFileSync(r.spilledTo!, 'utf8')).toBe(LONG);
  });

  it('a pre-existing world-writable per-user directory is refused: nothing written, the note says why', () => {
    const parent = join(dir.root, `agent-hooks-${process.getuid!()}`);
    mkdirSync(join(parent, 'output'), { recursive: true });
    chmodSync(parent, 0o777);
    const r = capOutputString(LONG);
    expect(r.spilledTo).toBeUndefined();
    expect(r.text).toMatch(/could not save the full text: .*writable by other users \(mode 777\)/);
    expect(r.text.length).toBeLessThan(LONG.length + 200);
    expect(readdirSync(join(parent, 'output'))).toEqual([]);
  });

  it('a symlink planted in place of the directory is refused', () => {
    const elsewhere = dir.path('attacker');
    mkdirSync(elsewhere, { mode: 0o700 });
    mkdirSync(join(dir.root, `agent-hooks-${process.getuid!()}`), { mode: 0o700 });
    symlinkSync(elsewhere, defaultSpillDir());
    const r = capOutputString(LONG);
    expect(r.spilledTo).toBeUndefined();
    expect(r.refused).toMatch(/is a symbolic link/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it.skipIf(process.getuid?.() !== 0)('a directory owned by another user is refused (needs root to create one)', () => {
    const parent = join(dir.root, `agent-hooks-${process.getuid!()}`);
    mkdirSync(join(parent, 'output'), { recursive: true, mode: 0o700 });
    chownSync(parent, 65534, 65534);
    const r = capOutputString(LONG);
    expect(r.refused).toMatch(/belongs to uid 65534/);
    expect(readdirSync(join(parent, 'output'))).toEqual([]);
  });
});

describe('an explicit spillDir', () => {
  it('is checked the same way', () => {
    const open = dir.path('open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(capOutputString(LONG, open).refused).toMatch(/writable by other users/);
    expect(readdirSync(open)).toEqual([]);
  });
});

describe('bounded count and age', () => {
  it('drops files older than a day and keeps at most SPILL_MAX_FILES', () => {
    const spill = dir.path('spill');
    mkdirSync(spill, { mode: 0o700 });
    const old = Date.now() / 1000 - 2 * 24 * 3600;
    for (let i = 0; i < 5; i++) {
      writeFileSync(join(spill, `old-${i}.txt`), 'old');
      utimesSync(join(spill, `old-${i}.txt`), old, old);
    }
    for (let i = 0; i < SPILL_MAX_FILES + 20; i++) {
      writeFileSync(join(spill, `recent-${String(i).padStart(3, '0')}.txt`), 'recent');
      const t = Date.now() / 1000 - 3600 + i;
      utimesSync(join(spill, `recent-${String(i).padStart(3, '0')}.txt`), t, t);
    }
    writeFileSync(join(spill, 'notes.md'), 'not a spill file');
    const r = capOutputString(LONG, spill);
    const left = readdirSync(spill).filter((n) => n.endsWith('.txt'));
    expect(left.length).toBe(SPILL_MAX_FILES);
    expect(left.some((n) => n.startsWith('old-'))).toBe(false);
    expect(existsSync(r.spilledTo!)).toBe(true);
    // The newest of the earlier files stay, the oldest go.
    expect(left).toContain(`recent-${SPILL_MAX_FILES + 19}.txt`);
    expect(left).not.toContain('recent-000.txt');
    expect(existsSync(join(spill, 'notes.md'))).toBe(true);
  });
});

/**
 * A reviewed hook is modelled twice per dispatch (at load, before it runs): the second walk reuses
 * the first (src/trust/pins/walk-cache.ts) only while every file-system answer it depended on is
 * the same. Each attacker move between the walks must be seen as the walk itself would see it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pinsOf } from '../../src/trust/pins.js';
import { flushWalks, loadWalks, resetWalks, walkCacheStats } from '../../src/trust/pins/walk-cache.js';
import { useTempDir } from '../helpers/tmp.js';

const dir = useTempDir('agent-hooks-walk-cache-');

function project(files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) dir.write(join('p', rel), text, 0o755);
  mkdirSync(dir.path('home'), { recursive: true });
  return realpathSync(dir.path('p'));
}

/** The pins of `command` in `root`, and whether the walk was reused. */
function walk(root: string, command: string) {
  const hits = walkCacheStats.hits;
  const pins = pinsOf({ type: 'command', command } as never, { cwd: root, projectDir: root, homeDir: dir.path('home') });
  return { pins, hit: walkCacheStats.hits > hits };
}

const SOURCING = { 'hooks/guard.sh': '. "$(dirname "$0")/lib.sh"\ncheck\n', 'hooks/lib.sh': 'check() { :; }\n' };

describe('the walk cache', () => {
  it('reuses the walk when nothing changed, and gives a copy', () => {
    const root = project(SOURCING);
    const first = walk(root, 'sh hooks/guard.sh');
    expect(first.hit).toBe(false);
    first.pins.files.push('/tampered');
    const second = walk(root, 'sh hooks/guard.sh');
    expect(second.hit).toBe(true);
    expect(second.pins.files).toEqual([join(root, 'hooks/guard.sh'), join(root, 'hooks/lib.sh')]);
    // Another directory, project or command is another walk.
    expect(walk(root, 'bash hooks/guard.sh').hit).toBe(false);
  });

  const moves: [string, Record<string, string>, string, (root: string) => void, string][] = [
    [
      'an edit of the script',
      SOURCING,
      'sh hooks/guard.sh',
      (root) => writeFileSync(join(root, 'hooks/guard.sh'), '. "$(dirname "$0")/other.sh"\n'),
      'hooks/other.sh',
    ],
    [
      'an edit of a sourced file (same size)',
      { ...SOURCING, 'hooks/lib.sh': '. "$(dirname "$0")/aaa.sh"\n' },
      'sh hooks/guard.sh',
      (root) => writeFileSync(join(root, 'hooks/lib.sh'), '. "$(dirname "$0")/bbb.sh"\n'),
      'hooks/bbb.sh',
    ],
    [
      'a sourced file swapped for another by rename',
      { ...SOURCING, 'hooks/evil.sh': '. "$(dirname "$0")/more.sh"\n' },
      'sh hooks/guard.sh',
      (root) => renameSync(join(root, 'hooks/evil.sh'), join(root, 'hooks/lib.sh')),
      'hooks/more.sh',
    ],
    [
      'the creation of a sourced file pinned absent',
      { 'hooks/guard.sh': SOURCING['hooks/guard.sh'] },
      'sh hooks/guard.sh',
      (root) => writeFileSync(join(root, 'hooks/lib.sh'), '. "$(dirname "$0")/deeper.sh"\n'),
      'hooks/deeper.sh',
    ],
    [
      'a directory created where a python package was absent (nothing pinned names it)',
      { 'hooks/guard.py': 'import helpers.checks\n' },
      'python3 hooks/guard.py',
      (root) => {
        mkdirSync(join(root, 'hooks/helpers'));
        writeFileSync(join(root, 'hooks/helpers/checks.py'), 'import os\n');
      },
      'hooks/helpers/checks.py',
    ],
  ];
  for (const [name, files, command, move, pinned] of moves)
    it(`walks again after ${name}`, () => {
      const root = project(files);
      expect(walk(root, command).pins.files).not.toContain(join(root, pinned));
      expect(walk(root, command).hit).toBe(true);
      move(root);
      const after = walk(root, command);
      expect(after.hit).toBe(false);
      expect(after.pins.files).toContain(join(root, pinned));
    });

  it('walks again after a new python module in the script’s directory (its recorded list)', () => {
    const root = project({ 'hooks/guard.py': 'import json\n' });
    const key = `glob:${join(root, 'hooks')}:python modules`;
    expect(walk(root, 'python3 hooks/guard.py').pins.records[key]).toBe('["guard.py"]');
    writeFileSync(join(root, 'hooks/json.cpython-312.so'), '');
    const after = walk(root, 'python3 hooks/guard.py');
    expect(after.hit).toBe(false);
    expect(after.pins.records[key]).toBe('["guard.py","json.cpython-312.so"]');
  });

  it('walks again after a sourced file is deleted', () => {
    const root = project({ ...SOURCING, 'hooks/lib.sh': '. "$(dirname "$0")/more.sh"\n' });
    expect(walk(root, 'sh hooks/guard.sh').pins.files).toContain(join(root, 'hooks/more.sh'));
    rmSync(join(root, 'hooks/lib.sh'));
    const after = walk(root, 'sh hooks/guard.sh');
    expect(after.hit).toBe(false);
    expect(after.pins.files).not.toContain(join(root, 'hooks/more.sh'));
  });
});

describe('walks kept on disk (walk-cache.json)', () => {
  const BUILD = 'b'.repeat(64);
  afterEach(resetWalks);

  /** A walk kept by an earlier process: written, then everything in memory forgotten. */
  async function keptOnDisk(root: string, store: string): Promise<string> {
    await loadWalks(store, BUILD);
    expect(walk(root, 'sh hooks/guard.sh').hit).toBe(false);
    await flushWalks();
    resetWalks();
    return join(store, 'walk-cache.json');
  }

  it('a later process reuses the walk, and walks again when a sourced file changed', async () => {
    const root = project(SOURCING);
    const store = dir.path('store');
    mkdirSync(store, { mode: 0o700 });
    const file = await keptOnDisk(root, store);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await loadWalks(store, BUILD);
    expect(walk(root, 'sh hooks/guard.sh').hit).toBe(true);
    resetWalks();
    writeFileSync(join(root, 'hooks/lib.sh'), '. "$(dirname "$0")/more.sh"\n');
    await loadWalks(store, BUILD);
    const after = walk(root, 'sh hooks/guard.sh');
    expect(after.hit).toBe(false);
    expect(after.pins.files).toContain(join(root, 'hooks/more.sh'));
  });

  it('is not used by another build, from a file others can write, or for a walk it cannot replay', async () => {
    const root = project(SOURCING);
    const store = dir.path('store');
    mkdirSync(store, { mode: 0o700 });
    const file = await keptOnDisk(root, store);
    await loadWalks(store, 'c'.repeat(64));
    expect(walk(root, 'sh hooks/guard.sh').hit).toBe(false);
    resetWalks();
    chmodSync(file, 0o620);
    await loadWalks(store, BUILD);
    expect(walk(root, 'sh hooks/guard.sh').hit).toBe(false);
    resetWalks();
    // A question this code does not ask (a forged or newer file) is never answered "unchanged".
    chmodSync(file, 0o600);
    const data = JSON.parse(readFileSync(file, 'utf8')) as { walks: [string, { observations: string[][] }][] };
    data.walks[0]![1].observations.push(['constructor', '', '!probe.ask is not a function']);
    writeFileSync(file, JSON.stringify(data));
    await loadWalks(store, BUILD);
    expect(walk(root, 'sh hooks/guard.sh').hit).toBe(false);
  });

  it('from the sources (no build id) nothing is written', async () => {
    const root = project(SOURCING);
    const store = dir.path('store');
    mkdirSync(store, { mode: 0o700 });
    await loadWalks(store);
    walk(root, 'sh hooks/guard.sh');
    await flushWalks();
    expect(readdirSync(store)).toEqual([]);
  });
});

describe('the model reads the file system only through observed-fs.ts', () => {
  it('no other file of it imports node:fs, the module resolver or file-kind', () => {
    const src = join(__dirname, '../../src/trust');
    const files = ['pins.ts', ...readdirSync(join(src, 'pins')).map((f) => join('pins', f))].filter(
      (f) => !['pins/observed-fs.ts', 'pins/walk-cache.ts'].includes(f),
    );
    // Import statements and dynamic imports only: a comment may name what the code reads.
    const reads =
      /^\s*import\b[^;]*?from '(?:node:)?fs(?:\/promises)?'|^\s*import\b[^;]*?\bcreateRequire\b[^;]*?from '(?:node:)?module'|^\s*import\b[^;]*?file-kind\.js'|import\(\s*'(?:node:)?(?:fs|module)/m;
    const offenders = files.filter((f) => reads.test(readFileSync(join(src, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});

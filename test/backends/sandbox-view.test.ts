/**
 * The sandbox's view when a reviewed hook's pinned files are served (src/backends/sandbox-view.ts),
 * run for real under bubblewrap where it can make its namespaces (skipped elsewhere): the hook
 * runs the verified bytes, whatever is at the path outside, before or while it runs — a file
 * renamed over, its directory or the whole project moved away and replaced. Both sandboxes serve
 * them: "bwrap" (isolated) and "view" (nothing else restricted).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/backends/command.js';
import { sandboxed, sandboxSpec, type SandboxKind } from '../../src/backends/sandbox.js';
import { newCopies, settleCopies } from '../../src/backends/sandbox-copies.js';
import type { ServedPin } from '../../src/types.js';
import { useTempDir } from '../helpers/tmp.js';

const BWRAP = spawnSync('bwrap', ['--unshare-all', '--ro-bind', '/', '/', 'true']).status === 0;
const dir = useTempDir('ah-view-');

const file = (text: string, mode = 0o644): ServedPin => ({ kind: 'file', bytes: Buffer.from(text), mode });

/** Run `sh -c command` in the sandbox, the project being `p`, with `served` served. */
async function inKind(
  command: string,
  served: Record<string, ServedPin>,
  during?: (copyOf: (real: string) => string) => void,
  kind: SandboxKind = 'bwrap',
) {
  const project = dir.path('p');
  const pins = new Map(Object.entries(served));
  const spec = sandboxSpec(kind, { projectDir: project, served: pins })!;
  const outer = sandboxed({ file: '/bin/sh', args: ['-c', command] }, spec, project, pins);
  if ('error' in outer) throw new Error(outer.error);
  const copies = outer.copies;
  const pending = runCommand({
    command: outer.file,
    args: outer.args,
    inputs: outer.inputs,
    cwd: project,
    env: { PATH: '/usr/bin:/bin' },
    stdin: '',
    timeoutMs: 20_000,
  });
  if (during) {
    const deadline = Date.now() + 15_000;
    while (!existsSync(join(project, 'out/started')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    during((real) => copies!.dirs.get(real)!.copy);
    writeFileSync(join(project, 'out/go'), '');
  }
  const r = await pending;
  const settled = copies ? settleCopies(copies) : { warnings: [] };
  return { out: r.stdout.trim(), err: r.stderr.trim(), code: r.exitCode, ...settled };
}

const WAIT = 'touch out/started; while [ ! -e out/go ]; do sleep 0.02; done; ';

describe.skipIf(!BWRAP).each(['bwrap', 'view'] as const)('a served file under "%s": the hook runs the verified bytes', (kind) => {
  const inView = (command: string, served: Record<string, ServedPin>, during?: (copyOf: (real: string) => string) => void) =>
    inKind(command, served, during, kind);

  it('the bytes served, not what is at the path when the sandbox starts', async () => {
    dir.write('p/hooks/g.sh', 'echo swapped-in\n');
    const r = await inView('sh hooks/g.sh', { [dir.path('p/hooks/g.sh')]: file('echo verified\n') });
    expect(r).toMatchObject({ out: 'verified', code: 0 });
  });

  it('while it runs: the file renamed over, its directory and the project moved away and replaced', async () => {
    const g = dir.write('p/hooks/g.sh', 'echo verified; cat "$(dirname "$0")/sibling.txt"\n');
    dir.write('p/hooks/sibling.txt', 'sibling\n');
    mkdirSync(dir.path('p/out'));
    const r = await inView(`${WAIT}sh hooks/g.sh`, { [g]: file('echo verified; cat "$(dirname "$0")/sibling.txt"\n') }, () => {
      const evil = 'echo swapped-in\n';
      writeFileSync(dir.path('p/hooks/.new'), evil);
      renameSync(dir.path('p/hooks/.new'), g);
      renameSync(dir.path('p/hooks'), dir.path('p/hooks.old'));
      dir.write('p/hooks/g.sh', evil);
      renameSync(dir.path('p'), dir.path('p.old'));
      dir.write('p/hooks/g.sh', evil);
      mkdirSync(dir.path('p/out'));
      // The go file goes where the sandbox's binds lead: the moved project's out/.
      renameSync(dir.path('p/out'), dir.path('p/out.unused'));
      renameSync(dir.path('p.old/out'), dir.path('p/out'));
    });
    expect(r).toMatchObject({ out: 'verified\nsibling', code: 0 });
  });

  it('new entries in the directories on the way are made, and put in place when the hook ends', async () => {
    const g = dir.write('p/hooks/g.sh', '');
    dir.write('p/notes.txt', 'old\n');
    mkdirSync(dir.path('p/out'), { recursive: true });
    const r = await inView(
      'echo new > notes.txt && echo made > out/file && mktemp -p /tmp >/dev/null && touch new-at-root && mkdir -p logs && echo line > logs/a.log && echo s > hooks/state.json && echo ok',
      { [g]: file('') },
    );
    expect(r).toMatchObject({ out: 'ok', code: 0, warnings: [] });
    expect(r.changed).toBeUndefined();
    expect(readFileSync(dir.path('p/notes.txt'), 'utf8')).toBe('new\n');
    expect(readFileSync(dir.path('p/out/file'), 'utf8')).toBe('made\n');
    expect(existsSync(dir.path('p/new-at-root'))).toBe(true);
    expect(readFileSync(dir.path('p/logs/a.log'), 'utf8')).toBe('line\n');
    expect(readFileSync(dir.path('p/hooks/state.json'), 'utf8')).toBe('s\n');
  });

  it('an entry of the same name made outside meanwhile is kept, and the hook’s is reported', async () => {
    const g = dir.write('p/hooks/g.sh', '');
    mkdirSync(dir.path('p/out'), { recursive: true });
    const r = await inView(`${WAIT}echo hook > both.txt`, { [g]: file('') }, () => dir.write('p/both.txt', 'agent\n'));
    expect(readFileSync(dir.path('p/both.txt'), 'utf8')).toBe('agent\n');
    expect(r.warnings).toEqual([expect.stringMatching(/both\.txt appeared meanwhile: the hook's was not kept$/)]);
  });

  it('a directory replaced while the hook runs (by a link elsewhere): what the hook wrote goes into the very directory it wrote in', async () => {
    const g = dir.write('p/hooks/g.sh', '');
    mkdirSync(dir.path('p/out'), { recursive: true });
    mkdirSync(dir.path('elsewhere'), { recursive: true });
    const r = await inView(`${WAIT}echo hook > hooks/new.txt`, { [g]: file('') }, () => {
      renameSync(dir.path('p/hooks'), dir.path('p/hooks.old'));
      symlinkSync(dir.path('elsewhere'), dir.path('p/hooks'));
    });
    expect(existsSync(dir.path('elsewhere/new.txt'))).toBe(false);
    expect(readFileSync(dir.path('p/hooks.old/new.txt'), 'utf8')).toBe('hook\n');
    expect(r.warnings).toEqual([]);
    rmSync(dir.path('p/hooks'));
    rmSync(dir.path('p/hooks.old/new.txt'));
    renameSync(dir.path('p/hooks.old'), dir.path('p/hooks'));
  });

  it('a private copy changed from outside while the hook runs (its mount point renamed away) voids the answer', async () => {
    const g = dir.write('p/hooks/g.sh', 'echo swapped-in\n');
    mkdirSync(dir.path('p/out'), { recursive: true });
    const r = await inView(`${WAIT}sh hooks/g.sh`, { [g]: file('echo verified\n') }, (copyOf) => {
      const copy = copyOf(dir.path('p/hooks'));
      renameSync(join(copy, 'g.sh'), join(copy, 'g.old'));
      writeFileSync(join(copy, 'g.sh'), 'echo unreviewed\n');
    });
    expect(r.changed).toMatch(/private copy .*g\.sh was changed from outside while the hook ran/);
  });

  it('an executable keeps its mode: run by path', async () => {
    const g = dir.write('p/bin/guard', '#!/bin/sh\necho swapped-in\n', 0o755);
    const r = await inView('./bin/guard', { [g]: file('#!/bin/sh\necho verified\n', 0o755) });
    expect(r).toMatchObject({ out: 'verified', code: 0 });
  });

  it('a path verified absent stays absent; a link points where it was verified to', async () => {
    dir.write('p/hooks/extra.sh', 'echo created-later\n');
    dir.write('p/hooks/real.sh', 'echo swapped-in\n');
    const r = await inView('[ -e hooks/extra.sh ] && echo extra-present; sh hooks/link.sh', {
      [dir.path('p/hooks/extra.sh')]: { kind: 'missing' },
      [dir.path('p/hooks/link.sh')]: { kind: 'link', target: dir.path('p/hooks/real.sh') },
      [dir.path('p/hooks/real.sh')]: file('echo via-link\n'),
    });
    expect(r).toMatchObject({ out: 'via-link', code: 0 });
  });
});

describe.skipIf(!BWRAP)('"bwrap": a path verified absent', () => {
  const inView = inKind;

  it('a path verified absent whose directory does not exist either (an output the hook names): the hook runs', async () => {
    dir.write('p/hooks/g.sh', '');
    const r = await inView('sh hooks/g.sh && echo ran; [ -e build ] || echo no-build', {
      [dir.path('p/hooks/g.sh')]: file('echo verified\n'),
      [dir.path('p/build/report/out.txt')]: { kind: 'missing' },
    });
    expect(r).toMatchObject({ out: 'verified\nran\nno-build', code: 0 });
  });
});

describe.skipIf(!BWRAP)('"view": nothing restricted but the served files', () => {
  it('a directory outside the project is writable, and the engine’s own processes are visible', async () => {
    dir.write('p/hooks/g.sh', '');
    mkdirSync(dir.path('outside'), { recursive: true });
    const r = await inKind(
      `echo made > '${dir.path('outside/file')}' && [ -e /proc/${process.pid}/cmdline ] && echo sees-engine`,
      { [dir.path('p/hooks/g.sh')]: file('') },
      undefined,
      'view',
    );
    expect(r).toMatchObject({ out: 'sees-engine', code: 0 });
    expect(readFileSync(dir.path('outside/file'), 'utf8')).toBe('made\n');
  });

  it('its private copies are never made where the agent can write (a home inside the project): no view, a reason', () => {
    const home = process.env.HOME;
    process.env.HOME = dir.path('p/.home');
    try {
      expect(newCopies([dir.path('p')])).toEqual({ error: expect.stringMatching(/inside .*\/p, which the agent can write$/) });
    } finally {
      process.env.HOME = home;
    }
  });

  it('is not used for a hook with nothing served: it runs as without a sandbox', () => {
    expect(sandboxSpec('view', { projectDir: dir.path('p'), served: new Map() })).toBeUndefined();
    expect(sandboxSpec('view', { projectDir: dir.path('p') })).toBeUndefined();
  });
});

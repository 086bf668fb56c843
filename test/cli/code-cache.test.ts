/**
 * The V8 code cache of the CommonJS files dispatch and `run` load (src/cli/code-cache.cts), and
 * the hook path's chunks taken into one file (scripts/bundle-dispatch.mjs, mergeStaticChunks).
 * Each test works on its own copy of the built package, so the caches it writes and damages are
 * its own. A cache's file is replaced (a new inode) exactly when it is written, so an inode that
 * stays the same across a dispatch means the cache was used as it was.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { tempDir, type TempDir } from '../helpers/tmp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let pkg: TempDir;
beforeAll(() => {
  if (!existsSync(`${ROOT}dist/cli/bin.cjs`)) throw new Error('dist/cli/bin.cjs is missing: run `npm run build` first (npm test does)');
});
beforeEach(() => {
  pkg = tempDir('agent-hooks-code-cache-');
  cpSync(`${ROOT}dist`, pkg.path('dist'), { recursive: true, filter: (src) => !src.endsWith('.v8cache') });
  cpSync(`${ROOT}package.json`, pkg.path('package.json'));
  symlinkSync(`${ROOT}node_modules`, pkg.path('node_modules'));
  // A user-level hook that denies: its answer goes through the engine's whole hook path.
  pkg.json('home/.claude/settings.json', {
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            {
              type: 'command',
              command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"cached"}}'`,
            },
          ],
        },
      ],
    },
  });
  mkdirSync(pkg.path('work'));
});
afterEach(() => pkg.cleanup());

const DENY = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"cached"}}';

function dispatch(env: Record<string, string> = {}, args: string[] = ['--agent', 'claude']) {
  const payload = JSON.stringify({
    session_id: 's',
    transcript_path: '',
    cwd: pkg.path('work'),
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'ls' },
  });
  const r = spawnSync(process.execPath, [pkg.path('dist/cli/bin.cjs'), 'dispatch', ...args], {
    cwd: pkg.path('work'),
    input: payload,
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: process.env.PATH ?? '', HOME: pkg.path('home'), ...env },
  });
  return { code: r.status, stdout: r.stdout.trim(), stderr: r.stderr };
}

/** The caches under dist/, by the path of the file they cache, with their inode. */
function caches(): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.v8cache')) out.set(full.slice(pkg.path('dist/').length, -'.v8cache'.length), statSync(full).ino);
    }
  };
  walk(pkg.path('dist'));
  return out;
}

const RUN_JS = 'cli/bundle/dispatch/run.js';
/** The source's mtime and size (two float64) and the build's digest, ahead of V8's data. */
const HEADER = 48;

test('the first dispatch writes a cache for each file it compiled, the next ones use them, and the answer is the same', () => {
  const off = dispatch({ AGENT_HOOKS_CODE_CACHE: '0' });
  expect(off).toMatchObject({ code: 0, stdout: DENY });
  expect(caches().size).toBe(0);

  expect(dispatch()).toMatchObject({ code: 0, stdout: DENY });
  const first = caches();
  expect([...first.keys()].sort()).toEqual(
    expect.arrayContaining([
      'cli/bundle-check/dispatch.cjs',
      RUN_JS,
      'validators/settings-core.cjs',
      'validators/input_PreToolUse.cjs',
      'validators/output_PreToolUse.cjs',
    ]),
  );
  // No file outside the bundles and the validators goes through the cache.
  for (const file of first.keys()) expect(file).toMatch(/^(cli\/bundle(-check|-run)?|validators)\//);

  expect(dispatch()).toMatchObject({ code: 0, stdout: DENY });
  expect(caches()).toEqual(first);
});

test('a damaged cache is rejected by V8, the file compiles from source, and the cache is written again', () => {
  dispatch();
  const file = pkg.path(`dist/${RUN_JS}.v8cache`);
  const blob = readFileSync(file);
  // The header (the source's size and mtime, the build's digest) still matches; V8's data is garbage.
  writeFileSync(file, Buffer.concat([blob.subarray(0, HEADER), Buffer.alloc(blob.length - HEADER, 0x5a)]));
  const damaged = statSync(file).ino;
  expect(dispatch()).toMatchObject({ code: 0, stdout: DENY });
  const rewritten = statSync(file).ino;
  expect(rewritten).not.toBe(damaged);
  expect(dispatch()).toMatchObject({ code: 0, stdout: DENY });
  expect(statSync(file).ino).toBe(rewritten);
  // Only the header, and nothing at all.
  for (const bytes of [blob.subarray(0, HEADER), Buffer.alloc(0)]) {
    writeFileSync(file, bytes);
    expect(dispatch()).toMatchObject({ code: 0, stdout: DENY });
    expect(readFileSync(file).length).toBeGreaterThan(HEADER);
  }
});

test('an edited file compiles from its new source, even with the same length, and its cache is made again', () => {
  dispatch();
  const check = pkg.path('dist/cli/bundle-check/dispatch.cjs');
  const before = statSync(`${check}.v8cache`).ino;
  // A message of the check's, changed without changing the file's length: V8 alone, which
  // checks only the length, would take the old code from the cache.
  const source = readFileSync(check, 'utf8');
  const word = 'unknown agent';
  expect(source).toContain(word);
  writeFileSync(check, source.replaceAll(word, 'UNKNOWN AGENT'));
  utimesSync(check, new Date(), new Date(Date.now() + 5_000));
  const r = dispatch({}, ['--agent', 'no-such-agent']);
  expect(r.stderr).toContain('UNKNOWN AGENT');
  expect(statSync(`${check}.v8cache`).ino).not.toBe(before);
  expect(readFileSync(`${check}.v8cache`).readDoubleLE(0)).toBe(statSync(check).mtimeMs);
  expect(dispatch({}, ['--agent', 'no-such-agent']).stderr).toContain('UNKNOWN AGENT');
});

test('a cache made under another build is not used, even for a file of the same size and mtime', () => {
  dispatch();
  const before = caches();
  const id = pkg.path('dist/cli/build-id');
  const other = 'f'.repeat(64);
  expect(readFileSync(id, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
  writeFileSync(id, `${other}\n`);
  expect(dispatch()).toMatchObject({ code: 0, stdout: DENY });
  const after = caches();
  for (const [file, ino] of before) {
    expect(after.get(file), file).not.toBe(ino);
    expect(
      readFileSync(pkg.path(`dist/${file}.v8cache`))
        .subarray(16, HEADER)
        .toString('hex'),
    ).toBe(other);
  }
});

test('without the build digest there is no cache', () => {
  rmSync(pkg.path('dist/cli/build-id'));
  expect(dispatch()).toMatchObject({ code: 0, stdout: DENY });
  expect(caches().size).toBe(0);
  writeFileSync(pkg.path('dist/cli/build-id'), 'not a digest\n');
  expect(dispatch()).toMatchObject({ code: 0, stdout: DENY });
  expect(caches().size).toBe(0);
});

test('a cache that can be neither read nor written changes nothing but the speed', () => {
  // A folder where the cache would be: reading it fails, and so does renaming a file onto it.
  mkdirSync(pkg.path(`dist/${RUN_JS}.v8cache`));
  expect(dispatch()).toMatchObject({ code: 0, stdout: DENY });
  expect(statSync(pkg.path(`dist/${RUN_JS}.v8cache`)).isDirectory()).toBe(true);
  expect(readdirSync(pkg.path('dist/cli/bundle/dispatch')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  expect(dispatch()).toMatchObject({ code: 0, stdout: DENY });
});

test('each file the cache compiles is read once, into the string V8 compiles, not by the loader of Node too', () => {
  // Node's loader reads a CommonJS file with fs.readFileSync; the cache's loader reads the bytes
  // into a buffer that already holds the wrapper, so the file's text is one string, not two.
  const log = pkg.path('reads.log');
  pkg.write(
    'reads.cjs',
    `const fs = require('fs');
const read = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
  if (typeof file === 'string' && /[\\/](cli[\\/]bundle[^\\/]*|validators)[\\/].*\\.c?js$/.test(file)) fs.appendFileSync(process.env.READS_LOG, file + '\\n');
  return read.call(this, file, ...rest);
};
`,
  );
  const reads = (env: Record<string, string>) => {
    rmSync(log, { force: true });
    expect(dispatch({ NODE_OPTIONS: `--require ${pkg.path('reads.cjs')}`, READS_LOG: log, ...env })).toMatchObject({
      code: 0,
      stdout: DENY,
    });
    return existsSync(log)
      ? readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((f) => f.slice(pkg.path('dist/').length))
      : [];
  };
  // Without the cache Node reads them itself: what the recorder sees when a file is read twice.
  expect(reads({ AGENT_HOOKS_CODE_CACHE: '0' })).toEqual(expect.arrayContaining(['cli/bundle-check/dispatch.cjs', RUN_JS]));
  expect(reads({})).toEqual([]); // writes the caches
  expect(reads({})).toEqual([]); // uses them
});

test('run writes and uses the caches of its own bundle', () => {
  const settings = pkg.json('one-hook.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] },
  });
  const run = () =>
    spawnSync(
      process.execPath,
      [pkg.path('dist/cli/bin.cjs'), 'run', 'PreToolUse', '--settings', settings, '--tool', 'Bash', '--input', '{"command":"ls"}'],
      {
        cwd: pkg.path('work'),
        encoding: 'utf8',
        timeout: 30_000,
        env: { PATH: process.env.PATH ?? '', HOME: pkg.path('home') },
      },
    );
  const r1 = run();
  expect(r1.status).toBe(0);
  expect(r1.stdout).toContain('success');
  const first = caches();
  expect([...first.keys()]).toEqual(expect.arrayContaining(['cli/bundle-run/run.js', 'cli/bundle-run/run-entry.js']));
  const r2 = run();
  const untimed = (s: string) => s.replace(/\d+ms/g, 'N ms');
  expect(untimed(r2.stdout)).toBe(untimed(r1.stdout));
  expect(caches()).toEqual(first);
});

test('code compiled with the cache reports the same lines and columns in stack traces', () => {
  // One long line, as the bundles are: a column offset would show at once.
  const source = "'use strict';const pad = 1;module.exports = () => { throw new Error('where'); };\n";
  pkg.write('dist/cli/bundle/zz-stack.cjs', source);
  pkg.write('dist/zz-stack.cjs', source);
  const frame = (file: string) =>
    node(`
      require(${JSON.stringify(pkg.path('dist/cli/code-cache.cjs'))}).useCodeCache(${JSON.stringify(pkg.path('dist'))});
      try { require(${JSON.stringify(file)})(); } catch (e) { console.log(e.stack.split('\\n')[1].replace(/^.*:(\\d+:\\d+)\\)?$/, '$1')); }
    `);
  const plain = frame(pkg.path('dist/zz-stack.cjs'));
  expect(plain).toBe(`1:${source.indexOf('throw') + 7}`);
  expect(frame(pkg.path('dist/cli/bundle/zz-stack.cjs'))).toBe(plain);
  // Compiled with the cache this time: the one the first run wrote at exit.
  expect(existsSync(pkg.path('dist/cli/bundle/zz-stack.cjs.v8cache'))).toBe(true);
  expect(frame(pkg.path('dist/cli/bundle/zz-stack.cjs'))).toBe(plain);
});

/** Runs `script` in a fresh Node with the copy's dispatch/run.js at hand; returns what it prints. */
function node(script: string): string {
  const r = spawnSync(process.execPath, ['-e', script], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: process.env.PATH ?? '', RUN_JS: pkg.path(`dist/${RUN_JS}`) },
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}

test('run.js holds its static chunks, and each is one module with its file on disk, whichever loads first', () => {
  const merged = readFileSync(pkg.path(`dist/${RUN_JS}`), 'utf8');
  const inside = [...merged.matchAll(/"(\.\.\/chunk-[A-Z0-9]+\.js)":function\(/g)].map((m) => m[1] as string);
  expect(inside.length).toBeGreaterThan(5);
  // No static require of a chunk file is left: the file loads none of them from disk.
  expect(merged).not.toMatch(/(?<!\(\)=>)\brequire\("\.\.?\/chunk-/);
  const chunk = inside[0] as string;
  // The chunk loaded from disk first: run.js takes that module, and does not run its own copy.
  expect(
    node(`
      const path = require('node:path');
      const file = path.join(path.dirname(process.env.RUN_JS), ${JSON.stringify(chunk)});
      require(file);
      const first = require.cache[file];
      require(process.env.RUN_JS);
      console.log(require.cache[file] === first);
    `),
  ).toBe('true');
  // run.js first: every chunk it holds is registered under its own file's name, and a require of
  // that file afterwards returns that module without compiling the file.
  expect(
    node(`
      const path = require('node:path');
      const Module = require('node:module');
      const compiled = [];
      const compile = Module.prototype._compile;
      Module.prototype._compile = function (content, filename) { compiled.push(filename); return compile.call(this, content, filename); };
      require(process.env.RUN_JS);
      const names = ${JSON.stringify(inside)}.map((c) => path.join(path.dirname(process.env.RUN_JS), c));
      const registered = names.every((f) => require.cache[f] && require.cache[f].loaded);
      const same = names.every((f) => require(f) === require.cache[f].exports);
      console.log(registered, same, compiled.filter((f) => names.includes(f)).length);
    `),
  ).toBe('true true 0');
});

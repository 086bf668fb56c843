/**
 * What a command hook executes is pinned, or the hook says it is unpinned: each spelling from
 * the trust review, with real files, a real trust store, and the real loader + gate.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendFileSync, chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { loadTrustedConfig, trustWorkspace, type TrustReport } from '../../src/trust/index.js';
import { HashCache } from '../../src/trust/hash.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { git } from './helpers.js';

let dir: TempDir;
let home: string;
let store: string;
let root: string;
beforeEach(() => {
  dir = tempDir('agent-hooks-pins-');
  home = dir.path('home');
  mkdirSync(home);
  store = dir.path('home', '.config', 'agent-hooks', 'trust.json');
  root = dir.path('proj');
  mkdirSync(root);
});
afterEach(() => dir.cleanup());

function hook(handler: Record<string, unknown> | string): void {
  const h = typeof handler === 'string' ? { type: 'command', command: handler } : { type: 'command', ...handler };
  dir.json('proj/.claude/settings.json', { hooks: { Stop: [{ hooks: [h] }] } });
}

async function assess(cache: HashCache | false = false): Promise<TrustReport> {
  const { trust } = await loadTrustedConfig(
    { cwd: root, projectDir: root, homeDir: home, managedSettingsPath: dir.path('none.json') },
    { workspaceDir: root, storePath: store, homeDir: home, hashCache: cache },
  );
  return trust;
}

/** The hook is pinned; after trusting, editing each of `files` flips it to modified, naming the file. */
async function expectPinned(files: string[]): Promise<TrustReport> {
  const r = await assess();
  expect(r.unpinned, JSON.stringify(r.hooks[0]?.unpinned)).toEqual([]);
  await trustWorkspace(r);
  expect((await assess()).state).toBe('trusted');
  for (const f of files) {
    const abs = join(root, f);
    appendFileSync(abs, '# changed\n');
    const m = await assess();
    expect(m.state, `editing ${f}`).toBe('modified');
    const changed = m.hooks[0]!.changes.filter((c) => c.kind === 'script').map((c) => c.script);
    expect(changed.some((s) => s === realpathSync(abs) || s?.startsWith('glob:') || realpathSync(abs).startsWith(`${s}/`))).toBe(true);
    // Restoring the content restores trust (the digest binds content, not time).
    await trustWorkspace(m);
  }
  return r;
}

async function expectUnpinned(pattern: RegExp): Promise<void> {
  const r = await assess();
  expect(r.unpinned).toHaveLength(1);
  expect(r.hooks[0]!.unpinned.join('\n')).toMatch(pattern);
  await expect(trustWorkspace(r)).rejects.toThrow(/unpinned.*--allow-unpinned/);
  await trustWorkspace(r, { allowUnpinned: true });
  expect((await assess()).state).toBe('trusted');
}

const script = (rel: string, body = 'echo hi') => {
  const f = dir.write(join('proj', rel), `#!/bin/sh\n${body}\n`);
  chmodSync(f, 0o755);
  return f;
};

describe('spellings that run a workspace file are pinned', () => {
  it('$(git rev-parse --show-toplevel)/.claude/hooks/x.sh', async () => {
    git(root, 'init', '-q');
    script('.claude/hooks/x.sh');
    hook('$(git rev-parse --show-toplevel)/.claude/hooks/x.sh');
    const r = await expectPinned(['.claude/hooks/x.sh']);
    expect(r.hooks[0]!.scripts).toContain(join(realpathSync(root), '.claude/hooks/x.sh'));
  });

  it('"$(git rev-parse --show-toplevel)"/.claude/hooks/x.sh from a sub-directory project', async () => {
    git(root, 'init', '-q');
    script('.claude/hooks/x.sh');
    hook('bash "$(git rev-parse --show-toplevel)/.claude/hooks/x.sh"');
    await expectPinned(['.claude/hooks/x.sh']);
  });

  it('cd .claude/hooks && ./x.sh', async () => {
    script('.claude/hooks/x.sh');
    hook('cd .claude/hooks && ./x.sh');
    await expectPinned(['.claude/hooks/x.sh']);
  });

  it('cd "$CLAUDE_PROJECT_DIR/.claude/hooks"; sh x.sh (cd across ;, bare script name for an interpreter)', async () => {
    script('.claude/hooks/x.sh');
    hook('cd "$CLAUDE_PROJECT_DIR/.claude/hooks"; sh x.sh');
    await expectPinned(['.claude/hooks/x.sh']);
  });

  it('python3 .claude/hooks/pkg (a directory: __main__.py and its siblings, hashed as a tree)', async () => {
    dir.write('proj/.claude/hooks/pkg/__main__.py', 'from . import util\n');
    dir.write('proj/.claude/hooks/pkg/util.py', 'print("hi")\n');
    hook('python3 .claude/hooks/pkg');
    const r = await expectPinned(['.claude/hooks/pkg/__main__.py', '.claude/hooks/pkg/util.py']);
    expect(r.scripts.find((s) => s.path.endsWith('/pkg'))?.current).toMatch(/^tree:sha256:/);
  });

  it('python3 -m pkg pins the module in the working directory', async () => {
    dir.write('proj/pkg/__main__.py', 'print(1)\n');
    hook('python3 -m pkg');
    const r = await expectPinned(['pkg/__main__.py']);
    // Its record of compiled modules names a directory of the workspace, not a path outside it.
    expect(r.hooks[0]!.scripts.some((k) => k.startsWith('pymod:'))).toBe(true);
    expect(r.hooks[0]!.outside).toEqual([]);
  });

  it('node .claude/hooks/pkg (package directory: package.json main)', async () => {
    dir.json('proj/.claude/hooks/pkg/package.json', { main: 'lib/main.js' });
    dir.write('proj/.claude/hooks/pkg/lib/main.js', 'console.log(1)\n');
    hook('node .claude/hooks/pkg');
    await expectPinned(['.claude/hooks/pkg/lib/main.js', '.claude/hooks/pkg/package.json']);
  });

  it('CLAUDE_PROJECT_DIR in all its forms', async () => {
    script('.claude/hooks/a.sh');
    script('.claude/hooks/b.sh');
    script('.claude/hooks/c.sh');
    script('.claude/hooks/d.sh');
    hook(
      '$CLAUDE_PROJECT_DIR/.claude/hooks/a.sh; ${CLAUDE_PROJECT_DIR}/.claude/hooks/b.sh; "$CLAUDE_PROJECT_DIR"/.claude/hooks/c.sh; "${CLAUDE_PROJECT_DIR}/.claude/hooks/d.sh"',
    );
    await expectPinned(['.claude/hooks/a.sh', '.claude/hooks/b.sh', '.claude/hooks/c.sh', '.claude/hooks/d.sh']);
  });

  it('$PWD and ~ are expanded', async () => {
    script('x.sh');
    hook('$PWD/x.sh && bash ~/h.sh');
    dir.write('home/h.sh', 'echo home\n');
    const r = await expectPinned(['x.sh']);
    // A file outside the workspace is pinned too, and listed as such.
    expect(r.hooks[0]!.outside).toEqual([join(realpathSync(home), 'h.sh')]);
  });

  it('sh -c \'…\' and bash -c "…" are followed, with cd inside', async () => {
    script('.claude/hooks/x.sh');
    script('y.sh');
    hook(`sh -c 'cd .claude/hooks && ./x.sh' && bash -c "./y.sh"`);
    await expectPinned(['.claude/hooks/x.sh', 'y.sh']);
  });

  it("assignments in the same command: D=…; $D/x.sh and D=… sh -c '$D/x.sh'", async () => {
    script('.claude/hooks/x.sh');
    script('.claude/hooks/y.sh');
    hook(`D=.claude/hooks; $D/x.sh; E=.claude/hooks sh -c '$E/y.sh'`);
    await expectPinned(['.claude/hooks/x.sh', '.claude/hooks/y.sh']);
  });

  it('globs are expanded at digest time; a new match is a change', async () => {
    script('.claude/hooks/a-check.sh');
    hook('bash .claude/hooks/a-*.sh');
    await expectPinned(['.claude/hooks/a-check.sh']);
    script('.claude/hooks/a-zzz.sh');
    const r = await assess();
    expect(r.state).toBe('modified');
    expect(r.hooks[0]!.changes.some((c) => c.script?.startsWith('glob:'))).toBe(true);
  });

  it('npx prettier pins node_modules/.bin/prettier: the link and its target', async () => {
    dir.write('proj/node_modules/prettier/bin/prettier.cjs', 'console.log(1)\n');
    mkdirSync(join(root, 'node_modules/.bin'), { recursive: true });
    symlinkSync('../prettier/bin/prettier.cjs', join(root, 'node_modules/.bin/prettier'));
    hook('npx prettier --check .');
    const r = await expectPinned(['node_modules/prettier/bin/prettier.cjs']);
    const link = r.scripts.find((s) => s.path.endsWith('.bin/prettier'));
    expect(link?.current).toBe(`symlink:${realpathSync(join(root, 'node_modules/prettier/bin/prettier.cjs'))}`);
  });

  it('a script that is a symlink records link and target; retargeting the link is a change', async () => {
    script('real-a.sh');
    script('real-b.sh');
    symlinkSync('real-a.sh', join(root, 'hook.sh'));
    hook('./hook.sh');
    await expectPinned(['real-a.sh']);
    const { unlinkSync } = await import('node:fs');
    unlinkSync(join(root, 'hook.sh'));
    symlinkSync('real-b.sh', join(root, 'hook.sh'));
    expect((await assess()).state).toBe('modified');
  });

  it('exec form: program and args, interpreter + directory', async () => {
    dir.write('proj/tool/__main__.py', 'print(1)\n');
    hook({ command: 'python3', args: ['${CLAUDE_PROJECT_DIR}/tool'] });
    await expectPinned(['tool/__main__.py']);
  });
});

describe('what cannot be determined is unpinned, and trusting it needs an explicit yes', () => {
  it('a command name from an unknown variable', () => expectUnpinned(/command name comes from an expansion/));
  it('cd into a directory that cannot be determined, then a relative script', async () => {
    hook('cd "$(mktemp -d)" && ./x.sh');
    await expectUnpinned(/relative to a directory that cannot be determined/);
  });
  it('a cd in an || branch, then && and a relative script: the directory depends on which side ran', async () => {
    // Found by the property test: `a || cd X && ./s` runs ./s in the old directory when a succeeds.
    script('.claude/hooks/x.sh');
    hook('true || cd "$HOME" && .claude/hooks/x.sh');
    await expectUnpinned(/relative to a directory that cannot be determined/);
  });
  it('npm run lint', async () => {
    hook('npm run lint');
    await expectUnpinned(/npm run runs what package.json/);
  });
  it('a shell fed from a pipe', async () => {
    hook('cat .claude/hooks/x.sh | sh');
    await expectUnpinned(/reads the commands it runs from a pipe/);
  });
  it('eval of an unknown string', async () => {
    hook('eval "$SOMETHING"');
    await expectUnpinned(/eval/);
  });
  it('a directory too large to pin', async () => {
    for (let i = 0; i < 2001; i++) writeFileSync(join(mkdirAll(join(root, 'big')), `f${i}.py`), '');
    hook('python3 big');
    await expectUnpinned(/more than 2000 entries/);
  });
  beforeEach(() => hook('$TOOL/x.sh'));
});

function mkdirAll(p: string): string {
  mkdirSync(p, { recursive: true });
  return p;
}

describe('hash cache', () => {
  it('a hit needs (device, inode, size, mtime, ctime) to match; any write is a miss', async () => {
    script('x.sh');
    hook('./x.sh');
    const file = dir.path('home', 'cache.json');
    // A cache with no racy window, so a file written just now may be cached.
    const cache = () => new HashCache(file, 0);
    const first = await assess(cache());
    await trustWorkspace(first);
    const { readFileSync } = await import('node:fs');
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { entries: Record<string, { k: string; h: string }> };
    const key = realpathSync(join(root, 'x.sh'));
    expect(saved.entries[key]?.h).toMatch(/^[0-9a-f]{64}$/);
    // Poison the entry: the cache is really used (the hash comes from it, so the digest moves)…
    saved.entries[key]!.h = '0'.repeat(64);
    writeFileSync(file, JSON.stringify(saved), { mode: 0o600 });
    expect((await assess(cache())).state).toBe('modified');
    // …and a write to the file (new ctime/mtime/size) misses it: the real content is hashed again.
    appendFileSync(join(root, 'x.sh'), '');
    writeFileSync(join(root, 'x.sh'), '#!/bin/sh\necho hi\n');
    expect((await assess(cache())).state).toBe('trusted');
  });

  it('a cache file others can write is ignored', async () => {
    script('x.sh');
    hook('./x.sh');
    const file = dir.path('home', 'cache.json');
    const r = await assess(new HashCache(file, 0));
    await trustWorkspace(r);
    const { readFileSync } = await import('node:fs');
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { entries: Record<string, { h: string }> };
    for (const e of Object.values(saved.entries)) e.h = '0'.repeat(64);
    writeFileSync(file, JSON.stringify(saved));
    chmodSync(file, 0o666);
    expect((await assess(new HashCache(file, 0))).state).toBe('trusted');
  });
});

describe("every spelling of an interpreter's options is read as the interpreter reads it", () => {
  // Each of these once left a file that runs unpinned: a trusted hook whose module, preload or
  // startup file could then be rewritten without the workspace reading as modified.
  const files: Record<string, string> = {
    'mod.py': 'print(1)\n',
    'pkg2/__init__.py': '\n',
    'pkg2/mod.py': 'print(1)\n',
    'hook.py': 'print(1)\n',
    'pre.js': 'void 0\n',
    'pre.mjs': 'void 0\n',
    'hook.js': 'void 0\n',
    'hookdir/index.js': 'console.log("hookdir ran")\n',
    '.env.hook': 'NODE_OPTIONS=--require=./pre.js\n',
    '.env.quoted': 'NODE_OPTIONS="--require \'./pre.js\'"\n',
    '.env.pkg': 'export NODE_OPTIONS="--import some-package"\n',
    'pre.rb': 'nil\n',
    'hook.rb': 'nil\n',
    'lib/X.pm': '1;\n',
    'lib/x.rb': 'nil\n',
    'hook.pl': '1;\n',
    'mymod.lua': 'return {}\n',
    'hook.lua': 'return\n',
    'rc.sh': 'true\n',
    'ini/php.ini': '\n',
    'hook.php': '<?php\n',
  };
  beforeEach(() => {
    for (const [f, body] of Object.entries(files)) dir.write(join('proj', f), body);
  });

  it.each([
    ['python3 -mmod', ['mod.py']],
    ['python3 -Bm mod', ['mod.py']],
    ['python3 -I -Bmmod', ['mod.py']],
    ['python3 -W ignore hook.py', ['hook.py']],
    ['python3 -X importtime -u hook.py', ['hook.py']],
    ['python3 -- hook.py', ['hook.py']],
    ['node --require=./pre.js hook.js', ['pre.js', 'hook.js']],
    ['node --import=./pre.mjs hook.js', ['pre.mjs', 'hook.js']],
    ['node --loader ./pre.mjs hook.js', ['pre.mjs', 'hook.js']],
    ['node -r=./pre.js hook.js', ['pre.js', 'hook.js']],
    // The env file's NODE_OPTIONS (`--require=./pre.js`) are options of that node: pre.js runs.
    ['node --env-file=.env.hook hook.js', ['.env.hook', 'pre.js', 'hook.js']],
    ['node --title hooks --no-warnings hook.js', ['hook.js']],
    // A value option of node's own that the table once lacked: its value was taken for the script.
    ['node --disable-warning ExperimentalWarning hookdir', ['hookdir/index.js']],
    // An option no table lists (a newer node's): flag or value, what either reading runs is pinned.
    ['node --some-future-option data hookdir', ['hookdir/index.js']],
    ['node --some-future-option hookdir', ['hookdir/index.js']],
    ['node --enable-source-maps --no-warnings hook.js --mode strict', ['hook.js']],
    // Node hands a single-dash word it does not know to V8 (`-prof` is --prof), and reads `_` as `-`.
    ['node -prof hookdir', ['hookdir/index.js']],
    ['node -expose_gc hookdir', ['hookdir/index.js']],
    ['node --experimental_loader=./pre.mjs hook.js', ['pre.mjs', 'hook.js']],
    // An unknown option before another option is a flag: node never takes `-word` as a value.
    ['node --future-a --future-b hook.js', ['hook.js']],
    ['deno run --allow-read --allow-env hook.js', ['hook.js']],
    ['deno run -A hook.js', ['hook.js']],
    ['bun --hot --smol hook.js', ['hook.js']],
    ['ruby -r./pre.rb hook.rb', ['pre.rb', 'hook.rb']],
    ['ruby -w -r ./pre.rb hook.rb', ['pre.rb', 'hook.rb']],
    ['ruby -I lib hook.rb', ['lib/x.rb', 'hook.rb']],
    ['perl -Ilib hook.pl', ['lib/X.pm', 'hook.pl']],
    ['perl -Mstrict -w hook.pl', ['hook.pl']],
    ['lua -l mymod hook.lua', ['mymod.lua', 'hook.lua']],
    ['php -c ini/php.ini -f hook.php', ['ini/php.ini', 'hook.php']],
    ['bash --rcfile rc.sh -i', ['rc.sh']],
    // Clusters whose options take an optional value of a set shape: -l octal digits, -0 a record separator.
    ['perl -CSD -w hook.pl', ['hook.pl']],
    // -F takes its pattern attached only; -d runs ./.perldb first, and `-dIlib` is -d then -I.
    ['perl -F hook.pl', ['hook.pl']],
    ['perl -d hook.pl', ['.perldb', 'hook.pl']],
    // Importing pkg2.mod runs pkg2/__init__.py first.
    ['python3 -m pkg2.mod', ['pkg2/__init__.py', 'pkg2/mod.py']],
    ['ruby --disable-gems -W0 hook.rb', ['hook.rb']],
  ])('%s pins %j', async (command, pinned) => {
    hook(command);
    await expectPinned(pinned);
  });

  it('node itself runs what the readings above pin', () => {
    const node = (...args: string[]) => spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
    expect(node('--disable-warning', 'ExperimentalWarning', 'hookdir').stdout).toBe('hookdir ran\n');
    expect(node('-expose_gc', 'hookdir').stdout).toBe('hookdir ran\n');
    writeFileSync(join(root, 'pre.js'), 'console.log("pre ran")\n');
    expect(node('--env-file=.env.hook', 'hookdir').stdout).toBe('pre ran\nhookdir ran\n');
    // A value option refuses a next word that starts with `-`: nothing runs.
    expect(node('--title', '--no-warnings', 'hookdir').status).not.toBe(0);
  });

  it('reads `-lne` as three options, not -l with the value "ne": its -e runs inline code, so the hook is unpinned', async () => {
    hook('perl -lne print hook.pl');
    await expectUnpinned(/perl -e runs inline code/);
  });

  it.each([
    ['perl -0777 -ne print hook.pl', /perl -e runs inline code/],
    // Issue 39 class 3: inline code, traps, toolchains and package scripts are never pinned to nothing.
    [`python3 -c "exec(open('g.py').read())"`, /python3 -c runs inline code/],
    [`node -e "require('./g')"`, /node -e runs inline code/],
    [`ruby -e 'load "g.rb"'`, /ruby -e runs inline code/],
    [`awk 'BEGIN { system("sh x.sh") }'`, /awk's program runs commands/],
    ['trap "sh x.sh" EXIT; true', /trap runs a command string/],
    ['cargo run --quiet', /cargo builds or runs/],
    ['go run ./cmd/guard', /go builds or runs/],
    ['uv run guard', /uv builds or runs/],
    ['bun run guard', /bun run runs what package.json/],
    ['node -r some-package hook.js', /loads the package some-package/],
    ['node --import=some-package hook.js', /loads the package some-package/],
    ['node --future-a x --future-b y hook.js', /options --future-a, --future-b are not modelled/],
    ['node --test', /option --test is not modelled/],
    ['node --run lint', /option --run is not modelled/],
    ['node --experimental-default-config-file hook.js', /--experimental-default-config-file is not modelled/],
    ['node --env-file=.env.quoted hook.js', /NODE_OPTIONS with quotes/],
    ['node --env-file=.env.pkg hook.js', /loads the package some-package/],
    ['python3 -Z hook.py', /-Z is not modelled/],
    ['python3 --frobnicate hook.py', /--frobnicate is not modelled/],
    ['ruby -C lib hook.rb', /changes the directory/],
    ['perl -Ilib -MX hook.pl', /looked up in directories the command adds/],
    ['perl -dIlib -MX hook.pl', /looked up in directories the command adds/],
    ['php -d auto_prepend_file=hook.php -r 1', /auto_prepend_file/],
  ])('%s is unpinned', async (command, why) => {
    hook(command);
    await expectUnpinned(why);
  });
});

describe('shells, wrappers and the environment read as the shell reads them', () => {
  // Each of these ran a file that was not pinned while the hook read as pinned (a trust review
  // with the real bash, dash, env and timeout as the judge).
  const C = `sh -c "cd h && ./x.sh"`;
  beforeEach(() => {
    for (const f of ['a.sh', 'x.sh', 'h/x.sh']) script(f, `echo ${f}`);
    dir.write('proj/a.py', 'print(1)\n');
  });

  it.each([
    ['bash -euo pipefail a.sh', ['a.sh']],
    ['bash +eo pipefail a.sh', ['a.sh']],
    [`bash -eo pipefail -c "cd h && ./x.sh"`, ['h/x.sh']],
    [`bash -c -e "cd h && ./x.sh"`, ['h/x.sh']],
    [`sh -c -- "cd h && ./x.sh"`, ['h/x.sh']],
    [`bash -sc "cd h && ./x.sh"`, ['h/x.sh']],
    [`command -- ${C}`, ['h/x.sh']],
    ['command ./a.sh -v', ['a.sh']],
    ['. -- ./a.sh', ['a.sh']],
    [`timeout --signal KILL 5 ${C}`, ['h/x.sh']],
    [`timeout -vk 1 5 ${C}`, ['h/x.sh']],
    [`nice --adjustment 5 ${C}`, ['h/x.sh']],
    [`nice -5 ${C}`, ['h/x.sh']],
    [`stdbuf --output L ${C}`, ['h/x.sh']],
    [`ionice -t ${C}`, ['h/x.sh']],
    [`env -iu FOO ${C}`, ['h/x.sh']],
    [`env - ${C}`, ['h/x.sh']],
    [`setsid ${C}`, ['h/x.sh']],
    // `<>` opens the file for reading too: the shell runs it.
    ['sh <> h/x.sh', ['h/x.sh']],
    // `! cmd` and `time cmd` run in the shell itself: the cd holds.
    // An option's value from a command substitution is still that option's value.
    [`timeout -k "$(cat k)" 5 ${C}`, ['h/x.sh']],
    ['! cd h; ./x.sh', ['h/x.sh']],
  ])('%s pins %j', async (command, pinned) => {
    hook(command);
    await expectPinned(pinned);
  });

  it.each([
    [`env -S'${C}'`, /env: option -S is not modelled/],
    ['env --chdir=h ./x.sh', /another directory/],
    [`flock /tmp/lock ${C}`, /flock runs a command/],
    [`sudo ${C}`, /sudo runs a command/],
    ['BASH_ENV=./h/x.sh bash a.sh', /sets BASH_ENV/],
    ['export PATH=./h:$PATH; x.sh', /export sets PATH/],
    ['PATH=./h:/usr/bin:/bin x.sh', /sets PATH/],
    ['env PYTHONPATH=. python3 a.py', /env sets PYTHONPATH/],
    ['HOME=$CLAUDE_PROJECT_DIR bash -l a.sh', /sets HOME/],
    ['f() { ./x.sh; }; cd h && f', /defines a function/],
    [`alias t='cd h && ./x.sh'`, /defines an alias/],
    [`sh $'\\x2e/a.sh'`, /quoting, which sh reads otherwise/],
    ['time -f %e ./a.sh', /time with options/],
    ['echo ./x.sh | env sh', /reads the commands it runs from a pipe/],
    ['echo ./x.sh | bash -euo pipefail', /reads the commands it runs from a pipe/],
    // stdin given by a redirection around the command, or another descriptor.
    ['{ sh; } < h/x.sh', /redirection of an enclosing command/],
    ['(bash -e) < h/x.sh', /redirection of an enclosing command/],
    ['exec < h/x.sh; sh', /redirection of an enclosing command/],
    ['exec 3<h/x.sh; sh <&3', /another file descriptor/],
    ['sh /dev/stdin < h/x.sh', /reads its script from \/dev\/stdin/],
    // dash and a bash-as-sh (macOS, Fedora) disagree: dash backgrounds `cd h &>…` and has no
    // pushd, bash moves. Where ./x.sh runs depends on which sh it is, so it is not pinned.
    ['cd h &>/dev/null && ./x.sh', /relative to a directory that cannot be determined/],
    ['pushd h; ./x.sh', /relative to a directory that cannot be determined/],
    ['time cd h; ./x.sh', /relative to a directory that cannot be determined/],
    // A second review: an option value from a variable, exported bash functions, other ways to set PATH.
    [`timeout $(cat opts) 5 ${C}`, /cannot tell which command timeout runs/],
    [`env 'BASH_FUNC_echo%%=() { ./x.sh; }' bash a.sh`, /not a variable name/],
    [`env a-b=1 ${C}`, /not a variable name/],
    ['unset PATH; x.sh', /unset sets PATH/],
    ['for PATH in ./h; do x.sh; done', /for sets PATH/],
    ['read PATH < a.py; x.sh', /read sets PATH/],
    ['printf -v PATH %s ./h; x.sh', /printf sets PATH/],
    ['PS4=$(./x.sh) bash -x a.sh', /sets PS4/],
    [`perl '-F: -d' -e 1`, /option word with a space/],
  ])('%s is unpinned', async (command, why) => {
    hook(command);
    await expectUnpinned(why);
  });

  it('bash fails `cd missing/../h` where dash reads it as text: under sh, which may be either, it is unpinned', async () => {
    const run = (shell: string, c: string) => spawnSync(shell, ['-c', c], { cwd: root, encoding: 'utf8' }).stdout;
    expect(run('/usr/bin/bash', 'cd missing/../h; ./x.sh')).toBe('x.sh\n');
    expect(run('/bin/sh', 'cd missing/../h; ./x.sh')).toBe('h/x.sh\n');
    hook({ command: 'cd missing/../h; ./x.sh', shell: 'bash' });
    await expectUnpinned(/cannot be determined/);
    hook('cd missing/../h; ./x.sh');
    await expectUnpinned(/cannot be determined/);
  });

  it('python3 -m pins compiled modules beside the source, and records them', async () => {
    dir.write('proj/tool.py', 'print(1)\n');
    dir.write('proj/tool.cpython-311-x86_64-linux-gnu.so', 'ELF');
    hook('python3 -m tool');
    await expectPinned(['tool.py', 'tool.cpython-311-x86_64-linux-gnu.so']);
  });

  it("a variable of the hook's own env that steers what runs unpins it", async () => {
    hook({ command: 'bash a.sh', shell: 'bash', env: { BASH_ENV: './h/x.sh' } });
    await expectUnpinned(/the hook's env sets BASH_ENV/);
    hook({ command: 'true', shell: 'bash', env: { 'BASH_FUNC_true%%': '() { ./x.sh; }' } });
    await expectUnpinned(/not a variable name/);
  });

  it('under shell "bash", `time cd h` moves, as the keyword runs in the shell', async () => {
    hook({ command: 'time cd h; ./x.sh', shell: 'bash' });
    await expectPinned(['h/x.sh']);
  });

  it('bash keeps `$\'…\'` and `&>` for itself: under shell "bash" they are read as bash does', async () => {
    hook({ command: `cd h &>/dev/null && bash $'./x.sh'`, shell: 'bash' });
    await expectPinned(['h/x.sh']);
  });

  it('a `..` after a symbolic link is where the kernel and `cd` take it', async () => {
    mkdirSync(join(root, 'h', 'sub'));
    symlinkSync(join(root, 'h', 'sub'), join(root, 'lnk'));
    const sh = (command: string) => spawnSync('/bin/sh', ['-c', command], { cwd: root, encoding: 'utf8' }).stdout;
    // The kernel follows lnk, then goes up: h/x.sh.
    expect(sh('./lnk/../x.sh')).toBe('h/x.sh\n');
    hook('./lnk/../x.sh');
    await expectPinned(['h/x.sh']);
    // `cd` goes up from $PWD as text (-L): back in the workspace root.
    expect(sh('cd lnk && cd .. && ./x.sh')).toBe('x.sh\n');
    hook('cd lnk && cd .. && ./x.sh');
    await expectPinned(['x.sh']);
    // -P follows the link first.
    expect(sh('cd -P lnk/.. && ./x.sh')).toBe('h/x.sh\n');
    hook('cd -P lnk/.. && ./x.sh');
    await expectPinned(['h/x.sh']);
  });

  it('the real shells run what these pin', () => {
    const sh = (shell: string, command: string) => spawnSync(shell, ['-c', command], { cwd: root, encoding: 'utf8' }).stdout;
    expect(sh('/bin/sh', 'cd h &>/dev/null && ./x.sh')).toBe('x.sh\n');
    // …while bash as sh (`sh` on macOS and Fedora; bash in POSIX mode) runs the cd in the shell.
    expect(sh('/usr/bin/bash', 'exec -a sh /usr/bin/bash --posix -c "cd h &>/dev/null && ./x.sh"')).toBe('h/x.sh\n');
    expect(sh('/usr/bin/bash', 'bash -euo pipefail a.sh')).toBe('a.sh\n');
    expect(sh('/bin/sh', '{ sh; } < h/x.sh')).toBe('h/x.sh\n');
    expect(sh('/bin/sh', 'sh <> h/x.sh')).toBe('h/x.sh\n');
    expect(sh('/usr/bin/bash', `bash -c -e "cd h && ./x.sh"`)).toBe('h/x.sh\n');
    expect(sh('/bin/sh', `timeout -vk 1 5 ${C}`)).toBe('h/x.sh\n');
    expect(sh('/bin/sh', `env -iu FOO PATH=/usr/bin:/bin ${C}`)).toBe('h/x.sh\n');
  });
});

/**
 * The engine's write guard (src/engine/guarded-files.ts) against generated Bash spellings of a
 * write to a pinned guard: a target spelt any way the shell reads as `hooks/guard.sh`, under any
 * writer, runner and compound the agent's own shell offers, is refused before it runs. Reading
 * the guard, or writing a file of another name, is not.
 */
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { guardedWrite } from '../../src/engine/guarded-files.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'ah-write-guard-')));
mkdirSync(join(root, 'hooks'));
mkdirSync(join(root, 'build'));
writeFileSync(join(root, 'hooks', 'guard.sh'), '#!/bin/sh\nexit 2\n');
mkdirSync(join(root, 'hooks', 'x'));
symlinkSync('hooks/x', join(root, 'L')); // `L/..` is hooks, as the kernel resolves it
symlinkSync('hooks/guard.sh', join(root, 'x.pyc')); // made by an earlier call, then reached by a glob
mkdirSync(join(root, '.claude'));
writeFileSync(join(root, '.claude', 'settings.json'), '{}\n');
const GUARDED = new Set([join(root, 'hooks', 'guard.sh'), join(root, '.claude', 'settings.json')]);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Spellings of the guard's path: [prefix the command needs, the word]. */
const TARGETS: ReadonlyArray<readonly [string, string]> = [
  ['', 'hooks/guard.sh'],
  ['', './hooks/guard.sh'],
  ['', 'hooks/../hooks/guard.sh'],
  ['', `${root}/hooks/guard.sh`],
  ['', '"$CLAUDE_PROJECT_DIR/hooks/guard.sh"'],
  ['', 'hooks/g*.sh'],
  ['', 'hooks/guard.{sh,x}'],
  ['', 'hooks/*'],
  ['', 'hooks/gu""ard.sh'],
  ['', "hooks/'guard'.sh"],
  ['', 'hooks/gu\\ard.sh'],
  ['', 'hooks/guard.s[h]'],
  ['D=hooks; ', '"$D/guard.sh"'],
  ['f=hooks/guard.sh; ', '"$f"'],
  ['f=hooks/guard.sh; ', '$f'],
  ['a=(hooks/guard.sh); ', '"${a[0]}"'],
  ['', '"$(echo hooks/guard.sh)"'],
  ['cd hooks && ', 'guard.sh'],
  ['cd hooks; ', './guard.sh'],
];

/** A writer of one target `t`. */
const WRITERS: ReadonlyArray<(t: string) => string> = [
  (t) => `rm -f ${t}`,
  (t) => `chmod -x ${t}`,
  (t) => `echo x > ${t}`,
  (t) => `echo x >> ${t}`,
  (t) => `: > ${t}`,
  (t) => `tee ${t} < /dev/null`,
  (t) => `sed -i s/2/0/ ${t}`,
  (t) => `cp /dev/null ${t}`,
  (t) => `mv /tmp/x ${t}`,
  (t) => `truncate -s0 ${t}`,
  (t) => `ln -sf /bin/true ${t}`,
  (t) => `dd if=/dev/null of=${t}`,
  (t) => `install /dev/null ${t}`,
  (t) => `touch ${t}`,
  (t) => `curl -sSo ${t} http://127.0.0.1:9/x`,
  (t) => `curl --output=${t} http://127.0.0.1:9/x`,
  (t) => `wget -O ${t} http://127.0.0.1:9/x`,
  (t) => `sort -o ${t} /dev/null`,
  (t) => `git checkout HEAD -- ${t}`,
  (t) => `git restore ${t}`,
];

/** A command around the write (`%` is the write). */
const WRAPPERS = [
  '%',
  'sudo %',
  'env X=1 %',
  'command %',
  'nice -n 5 %',
  'timeout 5 %',
  'true && %',
  '% ; true',
  'false || %',
  '( % )',
  '{ % ; }',
  'if true; then % ; fi',
  'for i in 1; do % ; done',
  '% &',
];

/** Every combination: the space is small enough to try whole (19 × 20 × 14 spellings). */
const EVERY_WRITE = TARGETS.flatMap(([prefix, t]) =>
  WRITERS.flatMap((writer) => WRAPPERS.map((wrap) => prefix + wrap.replace('%', writer(t)))),
);

/** Writes that land on the guard through its directory: a copy or move into it, a tree over it. */
const INTO_DIRECTORY = [
  'cp /tmp/guard.sh hooks/',
  'cp /tmp/guard.sh hooks',
  'mv /tmp/guard.sh ./hooks',
  'install /tmp/guard.sh hooks/',
  'ln -sf /tmp/guard.sh hooks/',
  'cp -r /tmp/hooks .',
  'cp -a /tmp/evil/. .',
  'rsync -a /tmp/evil/ hooks/',
  'mv /tmp/hooks .',
  'D=hooks; cp /tmp/guard.sh "$D"',
  'cp /tmp/x/* hooks/',
];

/** Found by the second attacker pass of issue 39 (each proceeded): the directory, `..` after a link, functions, runners, git. */
const SECOND_PASS = [
  'mv .claude .claude.bak',
  'rm -r .claude',
  'rm -r hooks',
  'rm -r *',
  'rm -r h*',
  'chmod -R a-x hooks',
  'cp -rT /tmp/evil hooks',
  'mv hooks h2; echo "exit 0" > h2/guard.sh; mv h2 hooks',
  'git checkout .',
  'git checkout HEAD -- .',
  'git restore hooks',
  'git restore .',
  'git -C hooks checkout -- guard.sh',
  'git rm -f hooks/guard.sh',
  'git mv hooks/guard.sh x',
  'echo "exit 0" > L/../guard.sh',
  'f(){ rm "$@"; }; f hooks/guard.sh',
  'set -- rm hooks/guard.sh; "$@"',
  'a=(rm hooks/guard.sh); "${a[@]}"',
  "trap 'rm hooks/guard.sh' EXIT",
  "env -S 'rm hooks/guard.sh'",
  'env -C hooks rm guard.sh',
  'xargs rm <<< hooks/guard.sh',
  "bash <<< 'rm hooks/guard.sh'",
  'echo x >& hooks/guard.sh',
  "find . -name '*.pyc' -exec rm {} + -o -exec rm {} +",
  "find . -name '*.pyc' -delete , -delete",
  'sed --in-place 1d hooks/guard.sh',
  'mv -t hooks /tmp/guard.sh',
  'cp -thooks /tmp/guard.sh',
  'gzip hooks/guard.sh',
  "ed -s hooks/guard.sh <<< $'1d\\nw\\nq'",
  "vim -es -c ':1d|wq' hooks/guard.sh",
  'shuf -o hooks/guard.sh /dev/null',
  'git diff --output=hooks/guard.sh',
  'find . -fprint hooks/guard.sh',
  'gcc -o hooks/guard.sh -x c /dev/null',
  'chmod -x *.pyc',
  'truncate -s0 ./*.pyc',
  // Re-trusting is the user's: the agent could trust a guard it changed.
  'agent-hooks trust --cwd .',
  'npx agent-hooks@latest revoke --cwd .',
  'node node_modules/agent-hooks/dist/cli/bin.cjs trust',
  'cd /tmp && agent-hooks trust --cwd -',
];

const refused = async (cmd: string) =>
  (await guardedWrite(GUARDED, { tool_name: 'Bash', tool_input: { command: cmd } }, root, 'PreToolUse')) !== undefined;

describe('the write guard, over generated spellings', () => {
  it('every write of the guard, however spelt, wrapped or run, is refused before it runs', async () => {
    const missed: string[] = [];
    for (const cmd of EVERY_WRITE) if (!(await refused(cmd))) missed.push(cmd);
    expect(missed).toEqual([]);
    expect(EVERY_WRITE.length).toBe(TARGETS.length * WRITERS.length * WRAPPERS.length);
  });
  it('a copy or move into the directory that holds the guard is refused', async () => {
    const missed: string[] = [];
    for (const cmd of INTO_DIRECTORY) if (!(await refused(cmd))) missed.push(cmd);
    expect(missed).toEqual([]);
  });
  it('what the second attacker pass found is refused', async () => {
    const missed: string[] = [];
    for (const cmd of SECOND_PASS) if (!(await refused(cmd))) missed.push(cmd);
    expect(missed).toEqual([]);
  });
  it('the same write, nested in a shell text (`bash -c`, `sh -c`, `eval`), is refused', async () => {
    const missed: string[] = [];
    for (const [, t] of TARGETS.filter(([p, t]) => p === '' && !/["'\\]/.test(t)))
      for (const writer of WRITERS)
        for (const cmd of [`bash -c '${writer(t)}'`, `sh -c "${writer(t)}"`, `eval '${writer(t)}'`])
          if (!(await refused(cmd))) missed.push(cmd);
    expect(missed).toEqual([]);
  });
  it('reading the guard, or writing another file, is not refused', async () => {
    const benign = fc
      .tuple(
        fc.constantFrom(...WRITERS),
        fc.constantFrom('build/out.txt', 'notes.md', '"$TMPDIR/x"', 'build/*'),
        fc.constantFrom(...WRAPPERS),
      )
      .map(([writer, t, wrap]) => wrap.replace('%', writer(t)));
    await fc.assert(
      fc.asyncProperty(benign, async (cmd) => {
        expect(await refused(cmd), cmd).toBe(false);
      }),
      { numRuns: 200 },
    );
    for (const cmd of [
      'cat hooks/guard.sh',
      'cp hooks/guard.sh /tmp/copy',
      'grep -c exit hooks/guard.sh > build/n',
      'cp /tmp/guard.sh build/',
      'cp -r /tmp/hooks build',
      'git checkout -b feature',
      'sort -u hooks/guard.sh',
      // Were refused: a source glob read as a written name, a source only read.
      'cp src/*.sh dist/',
      'cp hooks/*.sh /tmp/',
      'mv build/*.json dist/',
      'cp "$HOME/.claude/settings.json" /tmp/bak',
      'cp /tmp/x .',
      'agent-hooks status --cwd .',
      'npx agent-hooks check',
      'echo done 2>&1 >&2',
    ])
      expect(await refused(cmd), cmd).toBe(false);
  });
});

/**
 * Property: for generated shell commands (variables in every spelling, `cd`, `&&`, `;`,
 * `sh -c`, interpreters, an interpreter given a directory, globs, quoting, inline code flags,
 * `trap`, a `PATH` entry inside the workspace), either every
 * workspace file the command really executes is pinned — editing it flips the hook to
 * `modified` — or the hook is reported unpinned.
 *
 * "Really executes" is observed, not predicted: every script in the workspace appends its own
 * name to a log when it runs, and the command is run by a real bash after the engine's own
 * placeholder substitution. The workspace path contains a space, so unquoted expansions split.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { substituteForShell } from '../../src/backends/shell-placeholders.js';
import { loadTrustedConfig, trustWorkspace, type TrustReport } from '../../src/trust/index.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';
import { git } from './helpers.js';

let dir: TempDir;
let root: string;
let home: string;
let store: string;
let log: string;

/** Workspace files, relative to the root: name → content (each logs its own name when run). */
const FILES: Record<string, string> = {};
const shScript = (id: string) => `#!/bin/sh\necho ${id} >> "$LOG"\n`;
const jsScript = (id: string) => `require('fs').appendFileSync(process.env.LOG, ${JSON.stringify(`${id}\n`)});\n`;
for (const f of ['top.sh', '.claude/hooks/a.sh', '.claude/hooks/b.sh', 'sub/c.sh']) FILES[f] = shScript(f);
FILES['.claude/hooks/n.js'] = jsScript('.claude/hooks/n.js');
FILES['.claude/hooks/pkg/package.json'] = '{"main":"main.js"}\n';
FILES['.claude/hooks/pkg/main.js'] = jsScript('.claude/hooks/pkg/main.js');

beforeAll(() => {
  dir = tempDir('agent-hooks-pinprop-');
  root = dir.path('my proj');
  home = dir.path('home');
  mkdirSync(root);
  mkdirSync(home);
  root = realpathSync(root);
  store = join(home, 'trust.json');
  log = dir.path('ran.log');
  git(root, 'init', '-q');
  for (const [f, c] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), c);
    if (f.endsWith('.sh')) chmodSync(join(root, f), 0o755);
  }
});
afterAll(() => dir.cleanup());

// ---------------------------------------------------------------------------------------------
// The grammar

const DIRS = ['.', '.claude/hooks', 'sub'] as const;
const SH_FILES = ['top.sh', 'a.sh', 'b.sh', 'c.sh'] as const;
const dirOfFile: Record<string, string> = {
  'top.sh': '.',
  'a.sh': '.claude/hooks',
  'b.sh': '.claude/hooks',
  'c.sh': 'sub',
  'n.js': '.claude/hooks',
  pkg: '.claude/hooks',
};

const join2 = (d: string, f: string) => (d === '.' ? f : `${d}/${f}`);

/** A directory, spelled in one of the ways a shell would resolve it. */
const dirSpelling = fc
  .constantFrom(...DIRS)
  .chain((d) =>
    fc.constantFrom(
      d,
      `"$CLAUDE_PROJECT_DIR/${d}"`,
      `\${CLAUDE_PROJECT_DIR}/${d}`,
      `$CLAUDE_PROJECT_DIR/${d}`,
      `"$(git rev-parse --show-toplevel)/${d}"`,
      `~/../${d}`,
      '..',
      '"$UNKNOWN_DIR"',
    ),
  );

/** A path to a file, spelled relative to where the generator assumes nothing. */
const pathSpelling = (file: string) => {
  const d = dirOfFile[file]!;
  const rel = join2(d, file);
  return fc.constantFrom(
    `./${file}`,
    file,
    rel,
    `./${rel}`,
    `"./${rel}"`,
    `'${rel}'`,
    `"$CLAUDE_PROJECT_DIR"/${rel}`,
    `"\${CLAUDE_PROJECT_DIR}/${rel}"`,
    `\${CLAUDE_PROJECT_DIR}/${rel}`,
    `$CLAUDE_PROJECT_DIR/${rel}`,
    `"$PWD/${file}"`,
    `$(git rev-parse --show-toplevel)/${rel}`,
    `"$(git rev-parse --show-toplevel)"/${rel}`,
    `"$D"/${file}`,
    `$UNKNOWN/${file}`,
  );
};

const shRun = fc
  .constantFrom(...SH_FILES)
  .chain((f) => fc.tuple(fc.constantFrom('', 'sh ', 'bash ', 'exec ', 'env A=1 '), pathSpelling(f)).map(([runner, p]) => `${runner}${p}`));
const globRun = fc.constantFrom(
  'bash .claude/hooks/[ab].sh',
  'sh ./*.sh',
  'sh "$CLAUDE_PROJECT_DIR"/sub/*.sh',
  'for f in .claude/hooks/*.sh; do sh "$f"; done',
);
const nodeRun = fc.constantFrom('n.js', 'pkg').chain((f) => pathSpelling(f).map((p) => `node ${p}`));
const assign = fc.constantFrom(...DIRS).map((d) => `D=${d}`);
/** Issue 39: constructs whose executed files a model cannot always read: each must pin what it runs or unpin. */
const inlineCode = fc.constantFrom(
  `node -e 'require("./.claude/hooks/n.js")'`,
  `perl -e 'system("sh top.sh")'`,
  `python3 -c 'import subprocess; subprocess.run(["sh", "sub/c.sh"])'`,
);
const trapRun = fc.constantFrom(`trap 'sh sub/c.sh' EXIT`, `trap "sh top.sh" EXIT`);
const pathRun = fc.constantFrom(
  'PATH="$CLAUDE_PROJECT_DIR/sub:$PATH" c.sh',
  'export PATH=./sub:$PATH; c.sh',
  'PATH=.claude/hooks:$PATH a.sh',
);
const cd = dirSpelling.map((d) => `cd ${d}`);

const simple = fc.oneof(
  { weight: 4, arbitrary: shRun },
  { weight: 1, arbitrary: globRun },
  { weight: 2, arbitrary: nodeRun },
  { weight: 2, arbitrary: cd },
  { weight: 1, arbitrary: assign },
  { weight: 1, arbitrary: inlineCode },
  { weight: 1, arbitrary: trapRun },
  { weight: 1, arbitrary: pathRun },
);
const joiner = fc.constantFrom(' && ', '; ', ' || ');
const sequence = (steps: fc.Arbitrary<string>) =>
  fc.array(fc.tuple(joiner, steps), { minLength: 1, maxLength: 4 }).map((xs) => xs.map(([j, s], i) => (i === 0 ? s : `${j}${s}`)).join(''));
const nested = sequence(simple)
  .filter((s) => !s.includes("'"))
  .chain((inner) => fc.constantFrom(`sh -c '${inner}'`, `bash -c '${inner}'`, `(${inner})`));
const command = sequence(fc.oneof({ weight: 4, arbitrary: simple }, { weight: 1, arbitrary: nested }));

// ---------------------------------------------------------------------------------------------

async function assess(cmd: string): Promise<TrustReport> {
  writeFileSync(join(root, '.claude/settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: cmd }] }] } }));
  const { trust } = await loadTrustedConfig(
    { cwd: root, projectDir: root, homeDir: home, managedSettingsPath: dir.path('none.json') },
    { workspaceDir: root, storePath: store, homeDir: home, hashCache: false },
  );
  return trust;
}

/** Run the command as the engine would (placeholders substituted, bash, cwd = project) and return what ran. */
function executed(cmd: string): string[] {
  rmSync(log, { force: true });
  const line = substituteForShell(cmd, { CLAUDE_PROJECT_DIR: root }, 'bash');
  spawnSync('bash', ['-c', line], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: home, CLAUDE_PROJECT_DIR: root, LOG: log },
    stdio: 'ignore',
    timeout: 20_000,
  });
  return existsSync(log) ? [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))] : [];
}

describe('pinned or explicitly unpinned (property)', () => {
  it('every workspace file a generated command executes is pinned, or the hook is unpinned', async () => {
    let pinnedRuns = 0;
    let unpinnedRuns = 0;
    await fc.assert(
      fc.asyncProperty(command, async (cmd) => {
        rmSync(store, { force: true });
        const ran = executed(cmd);
        const r = await assess(cmd);
        expect(r.state).not.toBe('error');
        if (r.hooks[0]!.unpinned.length > 0) {
          unpinnedRuns++;
          return;
        }
        if (ran.length > 0) pinnedRuns++;
        await trustWorkspace(r);
        for (const f of ran) {
          const abs = join(root, f);
          const original = FILES[f]!;
          writeFileSync(abs, `${original}${f.endsWith('.js') ? '//' : '#'} edited\n`);
          try {
            const m = await assess(cmd);
            expect(m.state, `${cmd}: editing ${f}, which ran, must flip the hook to modified`).toBe('modified');
          } finally {
            writeFileSync(abs, original);
          }
        }
      }),
      { numRuns: Number(process.env.PIN_PROPERTY_RUNS ?? 120) },
    );
    // The grammar exercises both outcomes.
    expect(pinnedRuns).toBeGreaterThan(10);
    expect(unpinnedRuns).toBeGreaterThan(5);
  }, 600_000);
});

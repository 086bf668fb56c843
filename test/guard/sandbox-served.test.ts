/**
 * Issue 39, class 3 under the bwrap sandbox, attacked through `dispatch`: what the agent can still
 * change between the check and the moment the hook opens a file (src/backends/sandbox-view.ts,
 * src/trust/verify.ts). Each hook first runs hooks/wait.sh, which holds the window open until the
 * test has made its move; the scripts write only below `out/` (the project's writable part).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dispatchShell, GUARD_SH, runBin, sandbox, trust, verdict, waitForFile, type Sandbox } from './helpers.js';

const BWRAP = spawnSync('bwrap', ['--unshare-all', '--ro-bind', '/', '/', 'true']).status === 0;
const sandboxes: Sandbox[] = [];
afterAll(() => {
  for (const sb of sandboxes) sb.dir.cleanup();
});

const WAIT = 'touch "$CLAUDE_PROJECT_DIR/out/started"; while [ ! -e "$CLAUDE_PROJECT_DIR/out/go" ]; do sleep 0.02; done\n';

/**
 * A sandboxed project `p` whose one PreToolUse hook is `command` (after hooks/wait.sh), trusted;
 * then a dispatch of `rm -rf build`, `move` made while the hook waits. `mark`: out/mark, what an
 * unreviewed script leaves.
 */
async function race(
  files: Record<string, string>,
  command: string,
  move: (p: string) => void,
  setup?: (p: string) => void,
  agentHooks: Record<string, unknown> = { sandbox: 'bwrap' },
) {
  const sb = sandbox();
  sandboxes.push(sb);
  const project = sb.dir.path('p');
  const out = join(project, 'out');
  mkdirSync(out, { recursive: true });
  sb.dir.write('p/hooks/wait.sh', WAIT, 0o755);
  for (const [rel, text] of Object.entries(files)) sb.dir.write(`p/${rel}`, text, 0o755);
  setup?.(project);
  sb.dir.json('p/.claude/settings.json', {
    agentHooks,
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `sh hooks/wait.sh </dev/null; ${command}` }] }] },
  });
  await trust(sb, project);
  const pending = dispatchShell('claude', project, 'rm -rf build', { env: sb.env });
  await waitForFile(join(out, 'started'));
  move(project);
  writeFileSync(join(out, 'go'), '');
  const r = await pending;
  return { verdict: verdict(r), unreviewedRan: existsSync(join(out, 'mark')), said: r.stdout + r.stderr };
}

/** An attacker's script: leaves a mark in out/ and lets the call through. */
const PWN = '#!/bin/sh\necho pwned > "$CLAUDE_PROJECT_DIR/out/mark"\nexit 0\n';

/** `sh lib/current/guard.sh`, lib/current a link to ../v1, re-pointed to ../v2 while the hook waits. */
const relink = (agentHooks?: Record<string, unknown>) =>
  race(
    { 'v1/guard.sh': GUARD_SH, 'v2/guard.sh': PWN },
    'sh lib/current/guard.sh',
    (p) => {
      symlinkSync('../v2', join(p, 'lib/.next'));
      renameSync(join(p, 'lib/.next'), join(p, 'lib/current'));
    },
    (p) => {
      mkdirSync(join(p, 'lib'));
      symlinkSync('../v1', join(p, 'lib/current'));
    },
    agentHooks,
  );

describe.skipIf(!BWRAP)('under the bwrap sandbox: a move the agent makes after the check', () => {
  // The pin is v1/guard.sh (the real path), but the hook opens lib/current/guard.sh. lib/ is not on
  // the way to a served file, so the sandbox bound the real lib/, where the link was re-pointed.
  it('a link in a pinned path’s directory part, re-pointed: the reviewed guard still answers (deny)', async () => {
    const r = await relink();
    expect(r).toMatchObject({ verdict: 'deny', unreviewedRan: false });
  });
});

describe.skipIf(!BWRAP)('a link on the way, unchanged', () => {
  // `lib/current/guard.sh/extra` names a path below a file (recorded missing): the walk that
  // resolves links on the way must not take it for a change.
  it('a path-like word below a file, through a link: the hook runs and answers', async () => {
    const sb = sandbox();
    sandboxes.push(sb);
    const project = sb.dir.path('p');
    sb.dir.write('p/v1/guard.sh', GUARD_SH, 0o755);
    mkdirSync(join(project, 'lib'));
    symlinkSync('../v1', join(project, 'lib/current'));
    sb.dir.json('p/.claude/settings.json', {
      agentHooks: { sandbox: 'bwrap' },
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'cat lib/current/guard.sh/extra 2>/dev/null; sh lib/current/guard.sh' }] },
        ],
      },
    });
    await trust(sb, project);
    expect(verdict(await dispatchShell('claude', project, 'ls', { env: sb.env }))).toBe('proceed');
    expect(verdict(await dispatchShell('claude', project, 'rm -rf build', { env: sb.env }))).toBe('deny');
  });
});

describe('without the sandbox: a move the agent makes after the check', () => {
  // The stated limit: the swapped-in script may run, but its answer never counts.
  it('a link in a pinned path’s directory part, re-pointed: the answer does not count (deny)', async () => {
    const r = await relink({});
    expect(r).toMatchObject({ verdict: 'deny' });
    expect(r.said).toContain('changed while the hook ran');
  });
});

/** `python3 pkg` runs pkg/__main__.py: the directory is pinned as a tree and read in place. */
const PY_GUARD = "import sys\nif 'rm -rf' in sys.stdin.read():\n    print('no rm -rf', file=sys.stderr)\n    sys.exit(2)\n";
const PY_PWN = "import os\nopen(os.environ['CLAUDE_PROJECT_DIR'] + '/out/mark', 'w').write('pwned')\n";
const rewriteTree = (agentHooks?: Record<string, unknown>, rewrite = true) =>
  race(
    { 'pkg/__main__.py': PY_GUARD },
    'python3 pkg',
    (p) => rewrite && writeFileSync(join(p, 'pkg/__main__.py'), PY_PWN),
    // Its __pycache__ as a first run leaves it, before the review (else that run changes the tree).
    (p) => spawnSync('python3', ['pkg'], { cwd: p, input: '', env: { PATH: process.env.PATH } }),
    agentHooks,
  );

describe.skipIf(!BWRAP)('a tree an interpreter runs, rewritten in place while the hook runs', () => {
  // The docs: such a directory is read in place, and the post-run comparison covers it. It compared
  // only the directory's own (device, inode, size, mtime, ctime), which a write to a file in it leaves.
  it('control: unchanged, the reviewed guard answers (deny)', async () => {
    expect((await rewriteTree(undefined, false)).said).toContain('no rm -rf');
  });
  it('under the sandbox: the answer does not count (deny)', async () => {
    const r = await rewriteTree();
    expect(r).toMatchObject({ verdict: 'deny' });
  });
  it('without the sandbox: the answer does not count (deny)', async () => {
    const r = await rewriteTree({});
    expect(r).toMatchObject({ verdict: 'deny' });
    expect(r.said).toContain('changed while the hook ran');
  });
});

describe.skipIf(!BWRAP)('entries the agent adds to a directory on the way to a pinned file', () => {
  // Each entry is a bind in the view, and bwrap's cost grows with the square of their number
  // (here: 500 entries 0.6 s, 1,000 2.3 s, 2,000 9.4 s; over ~3,000 it refuses its arguments). The
  // agent adds files until the reviewed guard cannot answer within its timeout (under a sandbox a
  // timeout now fails closed, so that is a denial the model inflicts on itself). Beyond 500 binds
  // the sandbox reads the files in place instead, and says so in the decision's warnings.
  it('2,800 files in hooks/, the guard’s timeout 3 s: the reviewed guard answers (deny), no timeout', async () => {
    const sb = sandbox();
    sandboxes.push(sb);
    const project = sb.dir.path('p');
    sb.dir.write('p/hooks/guard.sh', GUARD_SH, 0o755);
    sb.dir.json('p/.claude/settings.json', {
      agentHooks: { sandbox: 'bwrap' },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh hooks/guard.sh', timeout: 3 }] }] },
    });
    await trust(sb, project);
    for (let i = 0; i < 2800; i++) writeFileSync(join(project, 'hooks', `note-${i}.txt`), '');
    const r = await dispatchShell('claude', project, 'rm -rf build', { env: sb.env });
    expect(verdict(r)).toBe('deny');
    expect(r.stdout).toContain('no rm -rf');
    // Said, not silent: the checked bytes were not served this time.
    expect(r.stderr).toContain('the sandbox did not serve the checked bytes');
  }, 60_000);
});

/** `sh hooks/g/*.sh`: the shell runs the first match, so a new match sorting first is what runs. */
const newMatch = (agentHooks?: Record<string, unknown>) =>
  race({ 'hooks/g/guard.sh': GUARD_SH }, 'sh hooks/g/*.sh', (p) => writeFileSync(join(p, 'hooks/g/0.sh'), PWN), undefined, agentHooks);

describe('a glob’s new match, created after the check', () => {
  it('without the sandbox: the answer does not count (deny)', async () => {
    const r = await newMatch({});
    expect(r).toMatchObject({ verdict: 'deny' });
  });
  it.skipIf(!BWRAP)('under the sandbox: it never runs (deny)', async () => {
    expect(await newMatch()).toMatchObject({ verdict: 'deny', unreviewedRan: false });
  });
});

const GUARD_LIB = "check() { if grep -q 'rm -rf'; then echo 'no rm -rf' >&2; exit 2; fi; }\n";
const SOURCING = '. "$(dirname "$0")/lib.sh"\ncheck\n';

describe('a file the reviewed script sources, not named by the command', () => {
  // hooks/lib.sh, sourced by hooks/guard.sh through `dirname "$0"`, is pinned with it
  // (src/trust/pins/shell-includes.ts): editing it makes the workspace `modified`.
  it('the sourced file edited after the review: the guard still denies', async () => {
    const sb = sandbox();
    sandboxes.push(sb);
    const project = sb.dir.path('p');
    sb.dir.write('p/hooks/guard.sh', SOURCING, 0o755);
    sb.dir.write('p/hooks/lib.sh', GUARD_LIB);
    sb.dir.json('p/.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh hooks/guard.sh' }] }] },
    });
    await trust(sb, project);
    expect(verdict(await dispatchShell('claude', project, 'rm -rf build', { env: sb.env }))).toBe('deny');
    // The engine's write guard covers it like any pinned file.
    const write = { session_id: 's-1', cwd: project, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_use_id: 't' };
    const tool_input = { file_path: join(project, 'hooks/lib.sh'), content: 'check() { exit 0; }\n' };
    const w = await runBin(['dispatch', '--agent', 'claude'], { env: sb.env, input: JSON.stringify({ ...write, tool_input }) });
    expect(['deny', 'ask']).toContain(verdict(w));
    writeFileSync(join(project, 'hooks/lib.sh'), 'check() { exit 0; }\n');
    expect(verdict(await dispatchShell('claude', project, 'rm -rf build', { env: sb.env }))).toBe('deny');
  });
  // Under the sandbox the sourced file is served from the checked bytes: an edit made after the
  // check is not what the guard loads.
  it.skipIf(!BWRAP)('under the sandbox, edited while the hook waits: the reviewed lib.sh is served (deny)', async () => {
    const r = await race({ 'hooks/guard.sh': SOURCING, 'hooks/lib.sh': GUARD_LIB }, 'sh hooks/guard.sh', (p) =>
      writeFileSync(join(p, 'hooks/lib.sh'), PWN.replace('#!/bin/sh\n', 'check() { ').replace('exit 0\n', 'exit 0; }\n')),
    );
    expect(r).toMatchObject({ verdict: 'deny', unreviewedRan: false });
  });
  // Attacker review: inside a function bash's ${BASH_SOURCE[0]} is the file that defined it; the
  // model used the caller's, pinning the absent hooks/rules.sh instead of hooks/lib/rules.sh.
  it('a file a library function sources through ${BASH_SOURCE[0]}, edited after the review: deny', async () => {
    const sb = sandbox();
    sandboxes.push(sb);
    const project = sb.dir.path('p');
    sb.dir.write(
      'p/hooks/guard.sh',
      '#!/bin/bash\n. "$(dirname "$0")/lib/util.sh"\nload_rules\nif blocked; then echo no >&2; exit 2; fi\n',
      0o755,
    );
    sb.dir.write('p/hooks/lib/util.sh', 'load_rules() {\n  . "$(dirname "${BASH_SOURCE[0]}")/rules.sh"\n}\n');
    sb.dir.write('p/hooks/lib/rules.sh', "blocked() { grep -q 'rm -rf'; }\n");
    sb.dir.json('p/.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/hooks/guard.sh' }] }] },
    });
    await trust(sb, project);
    const call = async (cmd: string) => verdict(await dispatchShell('claude', project, cmd, { env: sb.env }));
    expect(await call('ls')).toBe('proceed');
    expect(await call('rm -rf build')).toBe('deny');
    writeFileSync(join(project, 'hooks/lib/rules.sh'), 'blocked() { return 1; }\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
});

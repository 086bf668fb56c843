/**
 * What a hook's shell scripts source is pinned with them (issue 39): the idioms hooks use to find
 * their own directory, nesting, cycles, absent files, and what unpins, on real files.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pinsOf } from '../../src/trust/pins.js';
import { loadTrustedConfig, trustWorkspace } from '../../src/trust/index.js';
import { useTempDir } from '../helpers/tmp.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';

const dir = useTempDir('agent-hooks-includes-');

function project(files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) dir.write(join('p', rel), text, 0o755);
  mkdirSync(dir.path('home'), { recursive: true });
  return realpathSync(dir.path('p'));
}

function pins(root: string, command: string, extra: Record<string, unknown> = {}) {
  return pinsOf({ type: 'command', command, ...extra } as never, { cwd: root, projectDir: root, homeDir: dir.path('home') });
}

describe('a shell script sources', () => {
  const idioms: [string, string, string][] = [
    ['`. "$(dirname "$0")/lib.sh"`', 'sh', '. "$(dirname "$0")/lib.sh"\ncheck\n'],
    ['`source "${BASH_SOURCE%/*}/lib.sh"`', 'bash', 'source "${BASH_SOURCE%/*}/lib.sh"\n'],
    [
      '`DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"`',
      'bash',
      'DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"\nsource "$DIR/lib.sh"\n',
    ],
    [
      '`$(cd -P -- "$(dirname -- "$0")" &>/dev/null && pwd -P)`',
      'bash',
      'D=$(cd -P -- "$(dirname -- "$0")" &>/dev/null && pwd -P)\n. "$D/lib.sh"\n',
    ],
    ['`$(dirname "$(realpath "$0")")`', 'sh', '. "$(dirname "$(realpath "$0")")/lib.sh"\n'],
    ['`$(dirname "$(readlink -f "$0")")`', 'sh', '. "$(dirname "$(readlink -f "$0")")/lib.sh"\n'],
    ['`source "$CLAUDE_PROJECT_DIR/hooks/lib.sh"`', 'bash', 'source "$CLAUDE_PROJECT_DIR/hooks/lib.sh"\n'],
    ['a `cd` before a relative source', 'sh', 'cd "$(dirname "$0")"\n. ./lib.sh\n'],
    ['`cd "$(dirname "$0")" || exit 1`, then a relative source', 'sh', 'cd "$(dirname "$0")" || exit 1\n. ./lib.sh\n'],
  ];
  for (const [name, shell, text] of idioms)
    it(`${name} (${shell})`, () => {
      const root = project({ 'hooks/guard.sh': text, 'hooks/lib.sh': 'check() { :; }\n' });
      const p = pins(root, `${shell} hooks/guard.sh`);
      expect(p.unpinned).toEqual([]);
      expect(p.files).toContain(join(root, 'hooks/lib.sh'));
    });

  it('a file a trap handler sources is pinned (an `exit` there replaces the guard’s own); an unknown handler unpins', () => {
    const root = project({
      'hooks/guard.sh': `trap '. "$(dirname "$0")/cleanup.sh"' EXIT\ntrap -- "rm -f /tmp/x" INT\n. "$(dirname "$0")/lib.sh"\n`,
      'hooks/lib.sh': ':\n',
      'hooks/cleanup.sh': ':\n',
    });
    const p = pins(root, 'sh hooks/guard.sh');
    expect(p.unpinned).toEqual([]);
    expect(p.files).toContain(join(root, 'hooks/cleanup.sh'));
    const unknown = project({ 'hooks/guard.sh': 'trap "$ON_EXIT" EXIT\n' });
    expect(pins(unknown, 'sh hooks/guard.sh').unpinned).toEqual([
      'hooks/guard.sh: the command sets a trap whose text cannot be determined; what it sources is not modelled',
    ]);
  });

  it('a `cd` in the last stage of a pipeline (zsh, ksh, bash with lastpipe run it in the shell): a later relative source unpins', () => {
    const root = project({
      'hooks/guard.sh': 'shopt -s lastpipe\ncd "$(dirname "$0")"\nls -d sub | while read -r d; do cd "$d"; done\n. ./lib.sh\n',
      'hooks/lib.sh': ':\n',
      'hooks/sub/lib.sh': ':\n',
    });
    expect(pins(root, 'bash hooks/guard.sh').unpinned).toEqual([
      expect.stringMatching(/^hooks\/guard\.sh:4: .*directory that cannot be determined/),
    ]);
  });

  it('nested sources, with the state they set carried across', () => {
    const root = project({
      'hooks/guard.sh': 'DIR=$(dirname "$0")\n. "$DIR/a.sh"\n. "$LIBS/c.sh"\n',
      'hooks/a.sh': '. "$DIR/b.sh"\nLIBS="$DIR/libs"\n',
      'hooks/b.sh': ':\n',
      'hooks/libs/c.sh': '. "$LIBS/../b.sh"\n',
    });
    const p = pins(root, 'sh hooks/guard.sh');
    expect(p.unpinned).toEqual([]);
    for (const f of ['a.sh', 'b.sh', 'libs/c.sh']) expect(p.files).toContain(join(root, 'hooks', f));
  });

  it('a cycle ends; what it may change after is unknown', () => {
    const root = project({
      'hooks/guard.sh': '. "$CLAUDE_PROJECT_DIR/hooks/a.sh"\n',
      'hooks/a.sh': '[ -n "$A" ] && return; A=1\n. "$CLAUDE_PROJECT_DIR/hooks/b.sh"\n. "$CLAUDE_PROJECT_DIR/hooks/c.sh"\n',
      'hooks/b.sh': '. "$CLAUDE_PROJECT_DIR/hooks/a.sh"\n',
    });
    const p = pins(root, 'sh hooks/guard.sh');
    for (const f of ['a.sh', 'b.sh']) expect(p.files).toContain(join(root, 'hooks', f));
    expect(p.unpinned).toEqual(['hooks/a.sh:3: source of a file that cannot be determined']);
  });

  it('a function that sources, called later, in the state of the call', () => {
    const root = project({
      'hooks/guard.sh': 'load() { local x=1; . "$DIR/lib.sh"; . "$DIR/$1lib.sh"; }\nDIR=$(dirname "$0")\nload\n',
      'hooks/lib.sh': ':\n',
    });
    const p = pins(root, 'sh hooks/guard.sh');
    expect(p.files).toContain(join(root, 'hooks/lib.sh'));
    expect(p.unpinned).toEqual(['hooks/guard.sh:1: source of a file that cannot be determined']);
  });

  // Attacker review: bash's ${BASH_SOURCE[0]} in a function is the file that defined it; the
  // caller's value pinned hooks/rules.sh while bash sourced hooks/lib/rules.sh.
  it('${BASH_SOURCE[0]} in a function is the defining file’s, whoever calls it; $0 stays the script’s', () => {
    const root = project({
      'hooks/guard.sh':
        '. "$(dirname "$0")/lib/util.sh"\nload_rules\nhere() { . "$(dirname "${BASH_SOURCE[0]}")/near.sh"; }\n. "$(dirname "$0")/lib/calls.sh"\n',
      'hooks/lib/util.sh': 'load_rules() {\n  . "$(dirname "${BASH_SOURCE[0]}")/rules.sh"\n  . "$(dirname "$0")/main.sh"\n}\n',
      'hooks/lib/calls.sh': 'here\n',
    });
    const p = pins(root, 'bash hooks/guard.sh');
    expect(p.unpinned).toEqual([]);
    for (const f of ['hooks/lib/rules.sh', 'hooks/main.sh', 'hooks/near.sh']) expect(p.files).toContain(join(root, f));
    for (const f of ['hooks/rules.sh', 'hooks/lib/near.sh']) expect(p.files).not.toContain(join(root, f));
  });

  it('`source "$X"` with X unknown unpins the hook, naming the script and line', () => {
    const root = project({ 'hooks/guard.sh': '#!/bin/sh\n# reads X\nsource "$X"\nnpm run lint; trap "rm -f t" EXIT\n' });
    expect(pins(root, 'bash hooks/guard.sh').unpinned).toEqual(['hooks/guard.sh:3: source of a file that cannot be determined']);
  });

  it('what else the script runs is neither pinned nor a reason', () => {
    const root = project({ 'hooks/guard.sh': 'python3 other.py\n$UNKNOWN --x\n./tool.sh\n. ./lib.sh\n', 'tool.sh': '. ./t.sh\n' });
    const p = pins(root, 'sh hooks/guard.sh');
    expect(p.unpinned).toEqual([]);
    expect(p.files).toEqual([join(root, 'hooks/guard.sh'), join(root, 'lib.sh')]);
  });

  it('a script executed directly is read by its shebang (and a python one is not shell)', () => {
    const root = project({
      'hooks/guard': '#!/usr/bin/env bash\n[ -f x ] || exit 0\nsource "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$1"\n',
      'hooks/lib.sh': ':\n',
      'hooks/tool': '#!/usr/bin/env python3\nsource = 1\n',
    });
    const p = pins(root, './hooks/guard && hooks/tool');
    expect(p.files).toContain(join(root, 'hooks/lib.sh'));
    expect(p.unpinned).toEqual([]);
    // Under sh, BASH_SOURCE is not the script.
    writeFileSync(join(root, 'hooks/guard'), '#!/bin/sh\nsource "$(dirname "${BASH_SOURCE[0]}")/lib.sh"\n');
    expect(pins(root, './hooks/guard').unpinned).toEqual(['hooks/guard:2: source of a file that cannot be determined']);
  });

  it('an interpreter or a binary run by its path is not read as a script (`/bin/bash x.sh`, `/bin/true`)', () => {
    const root = project({ 'hooks/guard.sh': '. "$(dirname "$0")/lib.sh"\n', 'hooks/lib.sh': ':\n' });
    const p = pins(root, '/bin/bash hooks/guard.sh && /bin/true');
    expect(p.unpinned).toEqual([]);
    expect(p.files).toContain(join(root, 'hooks/lib.sh'));
  });

  it('a function named like a builtin the model follows, and an alias, unpin', () => {
    const root = project({ 'hooks/guard.sh': 'cd() { :; }\nalias x=y\n' });
    expect(pins(root, 'sh hooks/guard.sh').unpinned).toEqual([
      'hooks/guard.sh:1: a function named cd takes the place of the command; that is not modelled',
      'hooks/guard.sh: the command defines an alias; what it expands to is not modelled; what it sources is not modelled',
    ]);
  });
});

describe('a sourced file that is missing', () => {
  it('is pinned as absent: creating it makes the workspace modified', async () => {
    const root = project({ 'hooks/guard.sh': '[ -f "$(dirname "$0")/local.sh" ] && . "$(dirname "$0")/local.sh"\nexit 0\n' });
    dir.json('p/.claude/settings.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'sh hooks/guard.sh' }] }] } });
    const load = async () =>
      (
        await loadTrustedConfig(
          { cwd: root, projectDir: root, homeDir: dir.path('home'), managedSettingsPath: dir.path('none.json') },
          { workspaceDir: root, storePath: dir.path('home/trust.json'), homeDir: dir.path('home'), hashCache: false },
        )
      ).trust;
    const before = await load();
    expect(before.hooks[0]!.unpinned ?? []).toEqual([]);
    await trustWorkspace(before);
    expect((await load()).state).toBe('trusted');
    writeFileSync(join(root, 'hooks/local.sh'), 'exit 0\n');
    expect((await load()).state).toBe('modified');
  });
});

describe('status and trust', () => {
  requireBuiltCli();
  it('list the sourced file among the pins, and its edit as the change', () => {
    const root = project({ '.claude/hooks/guard.sh': '. "$(dirname "$0")/lib.sh"\n', '.claude/hooks/lib.sh': 'exit 0\n' });
    dir.json('p/.claude/settings.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'sh .claude/hooks/guard.sh' }] }] } });
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir.path('home'), AGENT_HOOKS_TRUST_STORE: dir.path('home/trust.json') };
    delete env.XDG_CONFIG_HOME;
    const cli = (args: string[]) => runCli(args, { env, timeout: 30_000 });
    const lib = join(root, '.claude/hooks/lib.sh');
    expect(cli(['status', '--cwd', root]).stdout).toContain(`pins: ${lib}\n`);
    const digest = JSON.parse(cli(['status', '--cwd', root, '--json']).stdout).digest as string;
    const t = cli(['trust', '--cwd', root, '--digest', digest]);
    expect(t.code, t.stderr).toBe(0);
    writeFileSync(lib, 'echo changed\n');
    const after = cli(['status', '--cwd', root]).stdout;
    expect(after).toMatch(/hook trust: +modified/);
    expect(after).toMatch(new RegExp(`\\n  ${lib}  sha256:\\w+ \\(trusted: sha256:\\w+\\)\\n`));
  });
});

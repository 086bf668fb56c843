/**
 * A data file a reviewed guard reads is reviewed with it (src/trust/pins/data-reads.ts,
 * data-reads-js.ts, imports-python.ts), through `dispatch`: the agent edits the deny list the guard
 * reads, and the next forbidden call fails closed instead of being allowed by the weakened list.
 * A file the guard writes (its own log) is not pinned: the guard keeps answering after it ran.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reviewedBashGuard, type Sandbox } from './helpers.js';

const sandboxes: Sandbox[] = [];
afterAll(() => {
  for (const sb of sandboxes) sb.dir.cleanup();
});
const PYTHON = spawnSync('python3', ['-c', '0']).status === 0;

const reviewed = (files: Record<string, string>, command: string) => reviewedBashGuard(sandboxes, files, command);

const GREP_GUARD =
  '#!/bin/sh\nif grep -qf "$(dirname "$0")/deny.txt"; then echo denied >&2; exit 2; fi\nruns=$(wc -l < "$(dirname "$0")/guard.log" 2>/dev/null)\necho "ran after ${runs:-0} runs" >> "$(dirname "$0")/guard.log"\nexit 0\n';
const WEAKENED = 'never-matches-anything\n';

describe('a reviewed shell guard’s deny list', () => {
  it('`grep -qf "$(dirname "$0")/deny.txt"`: the list edited: the forbidden call is denied (modified), not allowed', async () => {
    const { dir, call } = await reviewed(
      { 'hooks/guard.sh': GREP_GUARD, 'hooks/deny.txt': 'rm -rf\n' },
      'sh "$CLAUDE_PROJECT_DIR"/hooks/guard.sh',
    );
    writeFileSync(join(dir, 'hooks/deny.txt'), WEAKENED);
    expect(await call('rm -rf build')).toBe('deny');
  });
  it('`while read p; do …; done < "$CLAUDE_PROJECT_DIR/…/deny.txt"`: the list edited: deny', async () => {
    const guard =
      '#!/bin/bash\ninput=$(cat)\nwhile read -r p; do\n  case "$input" in *"$p"*) echo denied >&2; exit 2;; esac\ndone < "$CLAUDE_PROJECT_DIR/.claude/hooks/deny.txt"\nexit 0\n';
    const { dir, call } = await reviewed(
      { '.claude/hooks/guard.sh': guard, '.claude/hooks/deny.txt': 'rm -rf\n' },
      'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh',
    );
    writeFileSync(join(dir, '.claude/hooks/deny.txt'), WEAKENED);
    expect(await call('rm -rf build')).toBe('deny');
  });
  it('the log the guard reads and appends to is not a change: it keeps answering (control)', async () => {
    const { dir, call } = await reviewed(
      { 'hooks/guard.sh': GREP_GUARD, 'hooks/deny.txt': 'rm -rf\n' },
      'sh "$CLAUDE_PROJECT_DIR"/hooks/guard.sh',
    );
    expect(readFileSync(join(dir, 'hooks/guard.log'), 'utf8')).toContain('ran');
    expect(await call('ls')).toBe('proceed');
    expect(await call('rm -rf build')).toBe('deny');
  });
});

describe.skipIf(!PYTHON)('a reviewed Python guard’s rules file', () => {
  it("`json.load(open(Path(__file__).parent / 'rules.json'))`: the rules edited: deny", async () => {
    const guard =
      "import json, sys\nfrom pathlib import Path\nrules = json.load(open(Path(__file__).parent / 'rules.json'))\ntext = sys.stdin.read()\nif any(r in text for r in rules):\n    print('denied', file=sys.stderr)\n    sys.exit(2)\n";
    const { dir, call } = await reviewed(
      { 'hooks/guard.py': guard, 'hooks/rules.json': '["rm -rf"]\n' },
      'python3 "$CLAUDE_PROJECT_DIR"/hooks/guard.py',
    );
    writeFileSync(join(dir, 'hooks/rules.json'), '[]\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
  it("`json.loads(Path(__file__).parent.joinpath('rules.json').read_text())`: the rules edited: deny", async () => {
    const guard =
      "import json, sys\nfrom pathlib import Path\nrules = json.loads(Path(__file__).parent.joinpath('rules.json').read_text())\ntext = sys.stdin.read()\nif any(r in text for r in rules):\n    print('denied', file=sys.stderr)\n    sys.exit(2)\n";
    const { dir, call } = await reviewed(
      { 'hooks/guard.py': guard, 'hooks/rules.json': '["rm -rf"]\n' },
      'python3 "$CLAUDE_PROJECT_DIR"/hooks/guard.py',
    );
    writeFileSync(join(dir, 'hooks/rules.json'), '[]\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
});

describe('a reviewed JS guard’s rules file', () => {
  it("`readFileSync(new URL('./rules.json', import.meta.url))`: the rules edited: deny", async () => {
    const guard =
      "import { readFileSync } from 'node:fs';\nconst rules = JSON.parse(readFileSync(new URL('./rules.json', import.meta.url), 'utf8'));\nconst text = readFileSync(0, 'utf8');\nif (rules.some((r) => text.includes(r))) { console.error('denied'); process.exit(2); }\n";
    const { dir, call } = await reviewed(
      { 'hooks/guard.mjs': guard, 'hooks/rules.json': '["rm -rf"]\n' },
      'node "$CLAUDE_PROJECT_DIR"/hooks/guard.mjs',
    );
    writeFileSync(join(dir, 'hooks/rules.json'), '[]\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
  it('`readFileSync(`${import.meta.dirname}/rules.json`)`: the rules edited: deny', async () => {
    const guard =
      "import { readFileSync } from 'node:fs';\nconst rules = JSON.parse(readFileSync(`${import.meta.dirname}/rules.json`, 'utf8'));\nconst text = readFileSync(0, 'utf8');\nif (rules.some((r) => text.includes(r))) { console.error('denied'); process.exit(2); }\n";
    const { dir, call } = await reviewed(
      { 'hooks/guard.mjs': guard, 'hooks/rules.json': '["rm -rf"]\n' },
      'node "$CLAUDE_PROJECT_DIR"/hooks/guard.mjs',
    );
    writeFileSync(join(dir, 'hooks/rules.json'), '[]\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
});

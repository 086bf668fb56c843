/**
 * Data files a reviewed script reads are pinned with it (issue 39; src/trust/pins/data-reads.ts,
 * data-reads-js.ts, imports-python.ts), on real files: each read form, and what is not pinned — a
 * file the hook writes (its log), an absent file, a path the model cannot evaluate (no unpin either).
 */
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pinsOf } from '../../src/trust/pins.js';
import { useTempDir } from '../helpers/tmp.js';

const dir = useTempDir('agent-hooks-data-reads-');
let n = 0;

/** The pins of `command` in a fresh project holding `files` and hooks/deny.txt, rules.json and state.txt. */
function pins(files: Record<string, string>, command: string) {
  const p = `p${n++}`;
  const all = { 'hooks/deny.txt': 'rm -rf\n', 'hooks/rules.json': '[]\n', 'hooks/state.txt': '0\n', ...files };
  for (const [rel, text] of Object.entries(all)) dir.write(join(p, rel), text, 0o755);
  mkdirSync(dir.path('home'), { recursive: true });
  const root = realpathSync(dir.path(p));
  const out = pinsOf({ type: 'command', command } as never, { cwd: root, projectDir: root, homeDir: dir.path('home') });
  // Left out: the script, the modules a Python script may import, the package.json files of a JS one.
  const data = out.files.filter((f) => f.startsWith(`${root}/`) && !/\/hooks\/guard|\.py$|package\.json$/.test(f));
  return { unpinned: out.unpinned, data: data.map((f) => f.slice(root.length + 1)) };
}

const sh = (script: string) => pins({ 'hooks/guard.sh': script }, 'sh "$CLAUDE_PROJECT_DIR"/hooks/guard.sh');
const py = (script: string) => pins({ 'hooks/guard.py': script }, 'python3 "$CLAUDE_PROJECT_DIR"/hooks/guard.py');
const js = (script: string, name = 'guard.js') => pins({ [`hooks/${name}`]: script }, `node "$CLAUDE_PROJECT_DIR"/hooks/${name}`);

describe('a shell script’s data files', () => {
  const forms: [string, string][] = [
    ['grep -qf', 'grep -qf "$(dirname "$0")/deny.txt"\n'],
    ['grep --file=', 'grep -q --file="$(dirname "$0")/deny.txt"\n'],
    ['grep -e PATTERN FILE', 'grep -q -e x "$(dirname "$0")/deny.txt"\n'],
    ['grep PATTERN FILE', 'grep -q x "$CLAUDE_PROJECT_DIR/hooks/deny.txt"\n'],
    ['< redirection of a loop', 'while read p; do :; done < "$CLAUDE_PROJECT_DIR/hooks/deny.txt"\n'],
    ['0< redirection', 'read -r x 0< "$(dirname "$0")/deny.txt"\n'],
    ['$(< f)', 'x=$(< "$(dirname "$0")/deny.txt")\n'],
    ['cat in a pipe', 'cat "$(dirname "$0")/deny.txt" | sort\n'],
    ['head -n 5', 'head -n 5 "$(dirname "$0")/deny.txt"\n'],
    ['tail -n +2', 'tail -n +2 "$(dirname "$0")/deny.txt"\n'],
    ['after a cd', 'cd "$(dirname "$0")" || exit 1\ncat deny.txt\n'],
    ['in a function', 'check() { grep -qf "$D/deny.txt"; }\nD=$(dirname "$0")\ncheck\n'],
  ];
  for (const [name, script] of forms)
    it(name, () => {
      expect(sh(script)).toEqual({ unpinned: [], data: ['hooks/deny.txt'] });
    });
  it('jq: the filter is no file; FILE, --from-file, --slurpfile and --rawfile are', () => {
    expect(sh('jq -r --arg a b ".[]" "$(dirname "$0")/rules.json"\n').data).toEqual(['hooks/rules.json']);
    expect(sh('jq --from-file "$(dirname "$0")/deny.txt" /dev/null\n').data).toEqual(['hooks/deny.txt']);
    expect(sh('jq -n --slurpfile r "$(dirname "$0")/rules.json" --rawfile d "$(dirname "$0")/deny.txt" "$r"\n').data).toEqual([
      'hooks/rules.json',
      'hooks/deny.txt',
    ]);
    expect(sh('jq -n --args ".x" "$(dirname "$0")/deny.txt"\n').data).toEqual([]);
  });
  it('a file it writes is not pinned, even when read too (its log, its state)', () => {
    expect(sh('n=$(cat "$(dirname "$0")/state.txt")\necho $((n+1)) > "$(dirname "$0")/state.txt"\n').data).toEqual([]);
    expect(sh('tail -n 1 "$(dirname "$0")/state.txt"\necho x | tee -a "$(dirname "$0")/state.txt"\n').data).toEqual([]);
    expect(sh('cat "$(dirname "$0")/deny.txt" >> "$(dirname "$0")/state.txt"\n').data).toEqual(['hooks/deny.txt']);
  });
  it('a file named on the command line of `sh guard.sh FILE` (the stated workaround for a read not modelled)', () => {
    expect(pins({ 'hooks/guard.sh': 'grep -qf "$1"\n' }, 'sh hooks/guard.sh hooks/deny.txt').data).toEqual(['hooks/deny.txt']);
  });
  it('an absent file, one outside the workspace, and a path that cannot be determined: not pinned, not unpinned', () => {
    expect(sh('cat "$(dirname "$0")/absent.txt" /etc/hostname "$X/deny.txt" "$1"\n')).toEqual({ unpinned: [], data: [] });
  });
  it('a project file outside the guard’s directory is what it inspects, not its policy: not pinned (the agent edits it in its work)', () => {
    const out = pins(
      {
        'package.json': '{}\n',
        'README.md': 'x\n',
        'hooks/guard.sh':
          'jq -r .name "$CLAUDE_PROJECT_DIR/package.json"\ngrep -q x "$CLAUDE_PROJECT_DIR/README.md"\ngrep -qf "$(dirname "$0")/deny.txt"\n',
      },
      'sh "$CLAUDE_PROJECT_DIR"/hooks/guard.sh',
    );
    expect(out).toEqual({ unpinned: [], data: ['hooks/deny.txt'] });
  });
});

describe('a Python script’s data files', () => {
  const forms: [string, string][] = [
    ['open(Path(__file__).parent / …)', "from pathlib import Path\nrules = open(Path(__file__).parent / 'rules.json').read()\n"],
    [
      'json.load(open(os.path.join(os.path.dirname(__file__), …)))',
      "import json, os\nr = json.load(open(os.path.join(os.path.dirname(__file__), 'rules.json')))\n",
    ],
    ["open(…, 'rb')", "import os\nf = open(os.path.join(os.path.dirname(__file__), 'rules.json'), 'rb')\n"],
    ["open(…, mode='r', encoding=…)", "import os\nf = open(os.path.dirname(__file__) + '/rules.json', encoding='utf-8', mode='r')\n"],
    ['a bound path’s read_text()', "from pathlib import Path\nRULES = Path(__file__).parent / 'rules.json'\nx = RULES.read_text()\n"],
    ['(…).read_bytes()', "from pathlib import Path\ny = (Path(__file__).parent / 'rules.json').read_bytes()\n"],
    [
      'open(Path(__file__).with_name(…))',
      "import json\nfrom pathlib import Path\nr = json.load(open(Path(__file__).with_name('rules.json')))\n",
    ],
    [
      'Path(__file__).parent.joinpath(…).read_text()',
      "import json\nfrom pathlib import Path\nr = json.loads(Path(__file__).parent.joinpath('rules.json').read_text())\n",
    ],
  ];
  for (const [name, script] of forms)
    it(name, () => {
      expect(py(script)).toEqual({ unpinned: [], data: ['hooks/rules.json'] });
    });
  it('a write or append mode, a mode that cannot be determined, an absent file, a computed path: not pinned, not unpinned', () => {
    const script = [
      'import os, sys',
      'H = os.path.dirname(__file__)',
      "open(os.path.join(H, 'state.txt')).read()",
      "open(os.path.join(H, 'state.txt'), 'a').write('x')",
      "open(os.path.join(H, 'rules.json'), sys.argv[1])",
      "open(os.path.join(H, 'absent.json'))",
      'open(sys.argv[1])',
      '',
    ].join('\n');
    expect(py(script)).toEqual({ unpinned: [], data: [] });
  });
});

describe('a JS script’s data files', () => {
  const forms: [string, string, string][] = [
    [
      'readFileSync(join(__dirname, …))',
      "const { join } = require('path');\nrequire('fs').readFileSync(join(__dirname, 'rules.json'));\n",
      'guard.js',
    ],
    [
      'fs.readFile(path.resolve(__dirname, …))',
      "const fs = require('fs');\nfs.readFile(path.resolve(__dirname, 'rules.json'), cb);\n",
      'guard.js',
    ],
    ['readFileSync(__dirname + …)', "require('fs').readFileSync(__dirname + '/rules.json', 'utf8');\n", 'guard.js'],
    [
      "readFileSync(new URL('./rules.json', import.meta.url))",
      "import { readFileSync } from 'node:fs';\nreadFileSync(new URL('./rules.json', import.meta.url));\n",
      'guard.mjs',
    ],
    [
      'readFile from node:fs/promises of a const (import.meta.dirname)',
      "import { readFile } from 'node:fs/promises';\nconst RULES = path.join(import.meta.dirname, 'rules.json');\nawait readFile(RULES, 'utf8');\n",
      'guard.mjs',
    ],
    [
      'fs.promises.readFile(fileURLToPath(new URL(…)))',
      "await fs.promises.readFile(fileURLToPath(new URL('rules.json', import.meta.url)));\n",
      'guard.mjs',
    ],
    [
      'readFileSync(`${import.meta.dirname}/…`)',
      "import { readFileSync } from 'node:fs';\nreadFileSync(`${import.meta.dirname}/rules.json`);\n",
      'guard.mjs',
    ],
    ['readFileSync(`${__dirname}/…`)', "require('fs').readFileSync(`${__dirname}/rules.json`, 'utf8');\n", 'guard.js'],
    ['a template with `+` in two substitutions', "readFileSync(`${__dirname + ''}/${'rules' + '.json'}`);\n", 'guard.js'],
    [
      'join(dirname(fileURLToPath(import.meta.url)), …) through a const',
      "const here = path.dirname(fileURLToPath(import.meta.url));\nreadFileSync(path.join(here, 'rules.json'));\n",
      'guard.mjs',
    ],
    [
      "join(fileURLToPath(new URL('.', import.meta.url)), …)",
      "const here = fileURLToPath(new URL('.', import.meta.url));\nreadFileSync(path.join(here, 'rules.json'));\n",
      'guard.mjs',
    ],
  ];
  for (const [name, script, file] of forms)
    it(name, () => {
      expect(js(script, file)).toEqual({ unpinned: [], data: ['hooks/rules.json'] });
    });
  it('a file written too, an absent one, a computed path: not pinned, not unpinned', () => {
    const script =
      "const fs = require('fs');\nfs.readFileSync(__dirname + '/state.txt');\nfs.appendFileSync(__dirname + '/state.txt', 'x');\nfs.readFileSync(__dirname + '/absent.json');\nfs.readFileSync(process.argv[2]);\n";
    expect(js(script)).toEqual({ unpinned: [], data: [] });
  });
  it('a template with a substitution that is not a known path, or a URL with an encoded `/`: not pinned, not unpinned', () => {
    const script =
      "readFileSync(`${process.argv[2]}/rules.json`);\nreadFileSync(`${__dirname}/${name}`);\nreadFileSync(`${__dirname + x}/rules.json`);\nreadFileSync(new URL('a%2Frules.json', import.meta.url));\n";
    expect(js(script, 'guard.mjs')).toEqual({ unpinned: [], data: [] });
  });
});

/**
 * What a reviewed Python or JS guard imports is reviewed with it (src/trust/pins/includes.ts,
 * imports.ts), through `dispatch`: the agent edits the imported module, or creates a file that
 * shadows a standard module next to the guard. Either makes the workspace `modified`, so the
 * guard fails closed instead of answering with the edited code.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dispatchShell, sandbox, trust, verdict, type Sandbox } from './helpers.js';

const sandboxes: Sandbox[] = [];
afterAll(() => {
  for (const sb of sandboxes) sb.dir.cleanup();
});
const PYTHON = spawnSync('python3', ['-c', '0']).status === 0;

async function reviewed(files: Record<string, string>, command: string) {
  const sb = sandbox();
  sandboxes.push(sb);
  for (const [rel, text] of Object.entries(files)) sb.dir.write(`p/${rel}`, text, 0o755);
  sb.dir.json('p/.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } });
  const dir = sb.dir.path('p');
  await trust(sb, dir);
  const call = async (cmd: string) => verdict(await dispatchShell('claude', dir, cmd, { env: sb.env }));
  // Control: the reviewed guard answers both ways.
  expect(await call('ls')).toBe('proceed');
  expect(await call('rm -rf build')).toBe('deny');
  return { dir, call };
}

const PY_GUARD =
  "import sys, json\nfrom rules import blocked\nif blocked(sys.stdin.read()):\n    print('no rm -rf', file=sys.stderr)\n    sys.exit(2)\n";
const PY_RULES = "def blocked(text):\n    return 'rm -rf' in text\n";
const JS_GUARD =
  "import { blocked } from './rules.mjs';\nlet s = '';\nfor await (const c of process.stdin) s += c;\nif (blocked(s)) { console.error('no rm -rf'); process.exit(2); }\n";
const JS_RULES = "export const blocked = (t) => t.includes('rm -rf');\n";

describe.skipIf(!PYTHON)('a reviewed Python guard’s imports', () => {
  it('the imported module edited: the guard fails closed (deny), not allows', async () => {
    const { dir, call } = await reviewed({ 'hooks/guard.py': PY_GUARD, 'hooks/rules.py': PY_RULES }, 'python3 hooks/guard.py');
    writeFileSync(join(dir, 'hooks/rules.py'), 'def blocked(text):\n    return False\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
  it('a json.py created beside the guard (shadowing the standard module): deny', async () => {
    const { dir, call } = await reviewed({ 'hooks/guard.py': PY_GUARD, 'hooks/rules.py': PY_RULES }, 'python3 hooks/guard.py');
    writeFileSync(join(dir, 'hooks/json.py'), 'import sys\nsys.exit(0)\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
});

describe('a reviewed JS guard’s imports', () => {
  it('the imported module edited: the guard fails closed (deny), not allows', async () => {
    const { dir, call } = await reviewed({ 'hooks/guard.mjs': JS_GUARD, 'hooks/rules.mjs': JS_RULES }, 'node hooks/guard.mjs');
    writeFileSync(join(dir, 'hooks/rules.mjs'), 'export const blocked = () => false;\n');
    expect(await call('rm -rf build')).toBe('deny');
  });
});

/**
 * The shipped declarations as a TypeScript consumer compiles them: dist/ and package.json in a
 * temp project's node_modules, beside the package's dependencies and @types/node only — not the
 * optional peers (@modelcontextprotocol/sdk) nor our devDependencies (@types/picomatch) — and
 * `tsc --noEmit` with `strict` and `skipLibCheck: false` over every entry of the exports map.
 * With the MCP SDK installed, its Client and ClientOptions fit the manager's declared shapes.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, type TempDir } from '../helpers/tmp.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
/** Every code subpath of the exports map, so a new one is compiled without an edit here. */
const SUBPATHS = Object.keys(pkg.exports)
  .filter((k) => typeof pkg.exports[k] === 'object')
  .map((k) => (k === '.' ? 'agent-hooks' : `agent-hooks/${k.slice(2)}`));
/** The framework adapters (docs/frameworks.md): their declarations name their framework's types, so each is compiled with it. */
const FRAMEWORKS: Record<string, string[]> = {
  'agent-hooks/ai-sdk': ['ai'],
  'agent-hooks/mcp-client': ['@modelcontextprotocol/sdk'],
  'agent-hooks/mastra': ['@mastra/core'],
  'agent-hooks/langchain': ['langchain', '@langchain/core', '@langchain/langgraph'],
  'agent-hooks/openai-agents': ['@openai/agents'],
  'agent-hooks/claude-agent-sdk': ['@anthropic-ai/claude-agent-sdk'],
};
const CORE_SUBPATHS = SUBPATHS.filter((s) => !(s in FRAMEWORKS));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const COMPILER_OPTIONS = {
  strict: true,
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  target: 'ES2022',
  noEmit: true,
  types: ['node'],
};

let dir: TempDir;

function link(app: string, name: string): void {
  const to = join(dir.root, app, 'node_modules', name);
  mkdirSync(dirname(to), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules', name), to);
}

/** A consumer project `app`: the built package, its dependencies, @types/node, and `extra` packages. */
function consumer(app: string, files: Record<string, string>, skipLibCheck: boolean, extra: string[] = []): void {
  cpSync(join(ROOT, 'dist'), dir.path(app, 'node_modules/agent-hooks/dist'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), dir.path(app, 'node_modules/agent-hooks/package.json'));
  for (const name of [...Object.keys(pkg.dependencies), '@types/node', ...extra]) link(app, name);
  dir.json(`${app}/package.json`, { name: app, private: true, type: 'module' });
  dir.json(`${app}/tsconfig.json`, { compilerOptions: { ...COMPILER_OPTIONS, skipLibCheck }, files: Object.keys(files) });
  for (const [file, text] of Object.entries(files)) dir.write(`${app}/${file}`, text);
}

function tsc(app: string) {
  return spawnSync(process.execPath, [TSC, '-p', dir.path(app)], { cwd: dir.path(app), encoding: 'utf8', timeout: 120_000 });
}

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/index.d.ts'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  dir = tempDir('agent-hooks-declarations-');
});

// Eight copies of dist/: removing them can take longer than the default hook time on a loaded machine.
afterAll(() => dir?.cleanup(), 120_000);

describe('the shipped declarations', () => {
  it('compile with skipLibCheck: false and strict, without the optional peers or our devDependencies', () => {
    const imports = CORE_SUBPATHS.map((s, i) => `import * as m${i} from '${s}';`).join('\n');
    const uses = `export const entries = [${CORE_SUBPATHS.map((_, i) => `m${i}`).join(', ')}];\n`;
    consumer('bare', { 'index.ts': `${imports}\n${uses}` }, false);
    // The optional peer really is out of reach: resolving it from the consumer fails.
    expect(Object.keys(pkg.peerDependencies)).toContain('@modelcontextprotocol/sdk');
    expect(existsSync(dir.path('bare/node_modules/@modelcontextprotocol'))).toBe(false);
    const r = tsc('bare');
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 180_000);

  it('every framework adapter is an entry listed here', () => {
    expect(
      SUBPATHS.filter(
        (s) =>
          s.startsWith('agent-hooks/') &&
          pkg.exports[`./${s.slice(12)}`] &&
          JSON.stringify(pkg.exports[`./${s.slice(12)}`]).includes('/frameworks/'),
      ),
    ).toEqual(Object.keys(FRAMEWORKS));
  });

  it.each(Object.entries(FRAMEWORKS))(
    '%s compiles with its framework installed',
    (entry, packages) => {
      const app = `fw-${entry.slice(12)}`;
      consumer(app, { 'index.ts': `import * as m from '${entry}';\nexport const names = Object.keys(m);\n` }, true, packages);
      const r = tsc(app);
      expect(r.stdout + r.stderr).toBe('');
      expect(r.status).toBe(0);
    },
    180_000,
  );

  it('with the MCP SDK installed, its Client and ClientOptions fit the manager options', () => {
    const index = `
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { createMcpClientManager } from 'agent-hooks/mcp';
import { createHookEngine } from 'agent-hooks';
const client = new Client({ name: 'consumer', version: '1.0.0' });
const manager = createMcpClientManager({
  clients: { mine: client },
  clientOptions: (): ClientOptions => ({ capabilities: { elicitation: {} } }),
  prepareClient: (server, c) => void (c as Client).setNotificationHandler,
});
manager.setClient('other', client);
export const engine = createHookEngine({ mcp: manager });
`;
    consumer('with-sdk', { 'index.ts': index }, true, ['@modelcontextprotocol/sdk']);
    const r = tsc('with-sdk');
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 180_000);
});

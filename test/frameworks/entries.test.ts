/**
 * The framework entries as a user's program loads them (the built dist/, by package name): one
 * adapter loads its own framework and no other's, and an adapter whose framework is not installed
 * says what to install. A resolve hook (fixtures/) logs what is loaded and hides packages.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireBuiltCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const REGISTER = join(import.meta.dirname, 'fixtures', 'register.mjs');
/** Per entry: the packages hidden to play "not installed", its framework's package folders, what the error says. */
const ENTRIES = {
  langchain: {
    hide: ['langchain', '@langchain/langgraph'],
    dirs: ['/langchain/', '/@langchain/'],
    install: 'npm install langchain @langchain/langgraph',
  },
  'openai-agents': { hide: ['@openai/agents'], dirs: ['/@openai/agents'], install: 'npm install @openai/agents' },
  'claude-agent-sdk': {
    hide: ['@anthropic-ai/claude-agent-sdk'],
    dirs: ['/@anthropic-ai/claude-agent-sdk'],
    install: 'npm install @anthropic-ai/claude-agent-sdk',
  },
} as const;
/**
 * The package folder of every framework an adapter adapts (this suite's and the others'). The MCP
 * client adapter's is `@modelcontextprotocol/sdk`; `@openai/agents` brings its own MCP client
 * (`@modelcontextprotocol/client`), which is that framework's code, not another's.
 */
const FRAMEWORK_DIRS = [
  '/langchain/',
  '/@langchain/',
  '/@openai/agents',
  '/@anthropic-ai/claude-agent-sdk',
  '/ai/',
  '/@ai-sdk/',
  '/@mastra/',
  '/@modelcontextprotocol/sdk/',
];

function load(entry: string, hide: readonly string[] = []) {
  const dir = tempDir('fw-entries');
  const log = join(dir.path(), 'resolved.log');
  writeFileSync(log, '');
  const run = spawnSync(process.execPath, ['--import', REGISTER, '--input-type=module', '-e', `await import('agent-hooks/${entry}')`], {
    encoding: 'utf8',
    env: { ...process.env, HIDE_PACKAGES: hide.join(','), RESOLVE_LOG: log },
  });
  const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  dir.cleanup();
  return { status: run.status, stderr: run.stderr, urls };
}

describe('framework entries', () => {
  requireBuiltCli();
  for (const [entry, facts] of Object.entries(ENTRIES)) {
    it(`agent-hooks/${entry} loads its framework and no other`, () => {
      const { status, stderr, urls } = load(entry);
      expect(status, stderr).toBe(0);
      const frameworks = urls.filter((u) => u.includes('/node_modules/') && FRAMEWORK_DIRS.some((d) => u.includes(`/node_modules${d}`)));
      const own = (u: string) => facts.dirs.some((d) => u.includes(`/node_modules${d}`));
      expect(frameworks.filter(own).length).toBeGreaterThan(0);
      expect(frameworks.filter((u) => !own(u))).toEqual([]);
    });

    it(`agent-hooks/${entry} without its framework says what to install`, () => {
      const { status, stderr } = load(entry, facts.hide);
      expect(status).not.toBe(0);
      expect(stderr).toContain(`agent-hooks/${entry} needs`);
      expect(stderr).toContain(facts.install);
    });
  }
});

/**
 * The pinned agents and their install cache, outside the repository:
 * `${AGENT_HOOKS_AGENT_CACHE:-$HOME/.cache/agent-hooks/agents}/<pkg with / as +>@<version>`,
 * each filled once with `npm install --prefix` and re-used while its `.installed` stamp exists.
 * Nothing here touches package.json.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export type AgentName =
  | 'claude'
  | 'gemini'
  | 'codex'
  | 'qwen'
  | 'copilot'
  | 'droid'
  | 'pi'
  | 'opencode'
  | 'kilo'
  | 'letta'
  | 'cline'
  | 'auggie';

export interface AgentPin {
  /** npm specs installed together into one prefix. */
  packages: string[];
  /** The agent's entry, relative to the prefix. */
  bin: string;
  /** The version the suite verified (shown in docs/dialects.md). */
  version: string;
  /** Why this pin, where it is not the obvious one. */
  note?: string;
}

export const PINS: Record<AgentName, AgentPin> = {
  claude: { packages: ['@anthropic-ai/claude-code@2.1.328'], bin: 'node_modules/.bin/claude', version: '2.1.328' },
  gemini: { packages: ['@google/gemini-cli@0.61.0'], bin: 'node_modules/.bin/gemini', version: '0.61.0' },
  codex: { packages: ['@openai/codex@0.169.0'], bin: 'node_modules/.bin/codex', version: '0.169.0' },
  qwen: {
    packages: ['@qwen-code/qwen-code@0.24.4', 'node@22'],
    bin: 'node_modules/@qwen-code/qwen-code/cli-entry.js',
    version: '0.24.4',
    note: 'runs on the Node 22 binary of the npm package node@22 (Qwen Code needs Node >= 22)',
  },
  copilot: { packages: ['@github/copilot@1.0.102'], bin: 'node_modules/.bin/copilot', version: '1.0.102' },
  droid: {
    packages: ['@factory/cli-linux-x64@0.225.2'],
    bin: 'node_modules/@factory/cli-linux-x64/bin/droid',
    version: '0.225.2',
    note: 'the platform package itself: @factory/cli@0.225.1 (the only release) names a cli-linux-x64@0.225.1 that the registry does not have',
  },
  pi: {
    packages: ['@mariozechner/pi-coding-agent@0.73.1'],
    bin: 'node_modules/@mariozechner/pi-coding-agent/dist/cli.js',
    version: '0.73.1',
  },
  opencode: {
    packages: ['opencode-ai@1.18.33'],
    bin: 'node_modules/opencode-linux-x64/bin/opencode',
    version: '1.18.33',
    note: 'the Bun-compiled binary of the platform package opencode-linux-x64, which opencode-ai installs',
  },
  kilo: {
    packages: ['@kilocode/cli-linux-x64@7.7.9'],
    bin: 'node_modules/@kilocode/cli-linux-x64/bin/kilo',
    version: '7.7.9',
    note: 'the platform package itself: @kilocode/cli@7.8.1 names a cli-linux-x64@7.8.1 that the registry does not have; a reduced matrix, one run at a time (60-100 s per run here)',
  },
  letta: {
    packages: ['@letta-ai/letta-code@0.25.9'],
    bin: 'node_modules/@letta-ai/letta-code/letta.js',
    version: '0.25.9',
    note: 'the last release that runs on Node 20 (later ones need Node >= 22.19); run on its experimental local backend (no Letta server)',
  },
  cline: {
    packages: ['cline@3.0.65'],
    bin: 'node_modules/@cline/cli-linux-x64/bin/cline',
    version: '3.0.65',
    note: 'the Bun-compiled binary of its platform package @cline/cli-linux-x64, run directly',
  },
  auggie: { packages: ['@augmentcode/auggie@0.36.0'], bin: 'node_modules/@augmentcode/auggie/augment.mjs', version: '0.36.0' },
};

export function cacheRoot(): string {
  return process.env.AGENT_HOOKS_AGENT_CACHE ?? join(homedir(), '.cache', 'agent-hooks', 'agents');
}

export function prefixOf(name: AgentName): string {
  const pin = PINS[name];
  return join(cacheRoot(), pin.packages.map((p) => p.replaceAll('/', '+')).join('__'));
}

/** Shared by every Copilot run, so its 235 MB runtime is unpacked once. */
export function copilotPkgCache(): string {
  return join(cacheRoot(), 'copilot-pkg-cache');
}

/** Installs `name` unless cached; returns the absolute entry path, or throws with npm's output. */
export function ensureAgent(name: AgentName): string {
  const prefix = prefixOf(name);
  const stamp = join(prefix, '.installed');
  const bin = join(prefix, PINS[name].bin);
  if (existsSync(stamp) && existsSync(bin)) return bin;
  rmSync(prefix, { recursive: true, force: true });
  mkdirSync(prefix, { recursive: true });
  execFileSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', ...PINS[name].packages], {
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 600_000,
  });
  if (!existsSync(bin)) throw new Error(`${PINS[name].packages.join(' ')} installed, but ${PINS[name].bin} is missing`);
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  return bin;
}

/** The Node >= 22 binary Qwen Code runs on (from the npm package node@22, cached with it). */
export function node22(): string {
  return join(prefixOf('qwen'), 'node_modules', 'node', 'bin', 'node');
}

export function installedVersion(name: AgentName): string | undefined {
  try {
    const pkg = PINS[name].packages[0]!.replace(/@[^@/]+$/, '');
    return JSON.parse(readFileSync(join(prefixOf(name), 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

/**
 * Config dialects the engine reads, as generators for the adversarial-config suite. One entry
 * per dialect: what a valid document looks like (a fast-check arbitrary), how it is written to
 * disk, and how the engine loads it. The properties in configs.test.ts run over every entry, so
 * a dialect added later (Codex, Gemini/Qwen, Kimi TOML, Cursor, Copilot) plugs in by adding one
 * entry to DIALECTS — its valid-document arbitrary, serializer and loader.
 */
import path from 'node:path';
import fc from 'fast-check';
import { EVENT_NAMES, loadConfig } from '../../src/index.js';
import type { Diagnostic, NormalizedHook } from '../../src/entry/stages.js';
import type { TempDir } from '../helpers/tmp.js';

export interface LoadedDialectFile {
  /** The file the hooks were read from (provenance must name it). */
  file: string;
  hooks: NormalizedHook[];
  diagnostics: Diagnostic[];
}

export interface ConfigDialect {
  name: string;
  /** Valid documents (as data); the suite mutates them and adds garbage of its own. */
  document: fc.Arbitrary<unknown>;
  /** Document → file text. */
  serialize(doc: unknown): string;
  /** Writes `text` under `root` where this dialect is read from, and loads it with the engine's loader. */
  load(dir: TempDir, root: string, text: string): Promise<LoadedDialectFile>;
  /** `agent-hooks check` arguments that validate what `load` wrote under `root`. */
  checkArgs(root: string): string[];
}

// ---- building blocks shared by the Claude-shaped dialects --------------------------------------

/** Strings that have broken parsers elsewhere: prototype keys, control and astral characters, long text. */
export const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 12 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'hasOwnProperty',
      '',
      ' ',
      '*',
      '|',
      '\u0000',
      '\u2028',
      '😀',
      '\uD800',
      '$(id)',
      '${CLAUDE_PLUGIN_ROOT}',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 100_000 }).map((n) => 'x'.repeat(n)) },
);

/**
 * Commands are never executed by the config properties (a fake backend answers), so any string
 * is safe here; matchers avoid nested quantifiers, whose backtracking cost JavaScript cannot bound
 * (docs/hardening.md, known limits).
 */
const matcher = fc.oneof(
  fc.constantFrom(
    'Bash',
    'Edit|Write',
    '*',
    '',
    '^mcp__',
    'mcp__.*__write',
    '(',
    '[',
    'Bash(',
    '.*',
    'a{1,3}',
    'Notebook.*',
    'startup|resume',
  ),
  hostileString.filter((s) => !/[+*}]\s*\)?[+*{]/.test(s)),
);
const behavior = fc.constantFrom('ignore', 'ask', 'deny');
const common = {
  if: fc.oneof(
    fc.constantFrom(
      'Bash(git *)',
      'Edit(src/**)',
      'Bash(*rm *-r*f*)',
      'Read(~/.ssh/**)',
      'mcp__s__*',
      'WebFetch(domain:*.x.test)',
      'Bash(',
      '((',
    ),
    hostileString,
  ),
  timeout: fc.oneof(fc.double({ min: 0.001, max: 600, noNaN: true }), fc.constantFrom(1e-9, 1e12, 2 ** 31)),
  statusMessage: hostileString,
  once: fc.boolean(),
  failureBehavior: behavior,
  timeoutBehavior: behavior,
};
const handler = fc.oneof(
  fc.record(
    {
      type: fc.constant('command'),
      command: hostileString.filter((s) => s.length > 0),
      args: fc.array(hostileString, { maxLength: 3 }),
      async: fc.boolean(),
      asyncRewake: fc.boolean(),
      shell: fc.constantFrom('bash', 'sh', 'powershell'),
      env: fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
      ...common,
    },
    { requiredKeys: ['type', 'command'] },
  ),
  fc.record(
    {
      type: fc.constant('http'),
      url: fc.constantFrom('https://hooks.test/a', 'http://localhost:1/x', 'https://[::1]/'),
      headers: fc.dictionary(hostileString, hostileString, { maxKeys: 2 }),
      ...common,
    },
    { requiredKeys: ['type', 'url'] },
  ),
  fc.record(
    {
      type: fc.constant('mcp_tool'),
      server: hostileString.filter((s) => s.length > 0),
      tool: hostileString.filter((s) => s.length > 0),
      input: fc.dictionary(hostileString, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 }),
      ...common,
    },
    { requiredKeys: ['type', 'server', 'tool'] },
  ),
  fc.record(
    { type: fc.constantFrom('prompt', 'agent'), prompt: hostileString.filter((s) => s.length > 0), model: hostileString, ...common },
    { requiredKeys: ['type', 'prompt'] },
  ),
);
const group = fc.record({ matcher, hooks: fc.array(handler, { maxLength: 3 }) }, { requiredKeys: ['hooks'] });
export const hooksObject = fc.dictionary(fc.constantFrom(...EVENT_NAMES), fc.array(group, { maxLength: 3 }), { maxKeys: 5 });

const claudeSettingsDoc = fc.record(
  {
    hooks: hooksObject,
    disableAllHooks: fc.boolean(),
    agentHooks: fc.record(
      {
        maxConcurrentHooks: fc.integer({ min: 1, max: 64 }),
        failureBehavior: behavior,
        timeoutBehavior: behavior,
        stopHookMaxConsecutiveBlocks: fc.integer({ min: 0, max: 20 }),
        stdinLimitBytes: fc.integer({ min: 1, max: 1 << 20 }),
        outputLimitBytes: fc.integer({ min: 1, max: 1 << 20 }),
      },
      { requiredKeys: [] },
    ),
    allowedHttpHookUrls: fc.array(hostileString, { maxLength: 2 }),
    permissions: fc.jsonValue({ maxDepth: 3 }),
  },
  { requiredKeys: ['hooks'] },
);

const json = (doc: unknown) => JSON.stringify(doc, null, 1);

// ---- the dialects ------------------------------------------------------------------------------

const claudeSettings: ConfigDialect = {
  name: 'claude settings.json',
  document: claudeSettingsDoc,
  serialize: json,
  async load(dir, root, text) {
    const file = path.join(root, 'settings.json');
    dir.write(path.relative(dir.root, file), text);
    const config = await loadConfig({ cwd: root, discover: false, settingsFiles: [file] });
    return { file, hooks: config.hooks, diagnostics: config.diagnostics };
  },
  checkArgs: (root) => ['check', path.join(root, 'settings.json'), '--json'],
};

const claudePlugin: ConfigDialect = {
  name: 'claude plugin hooks/hooks.json',
  document: fc.record({ description: hostileString, hooks: hooksObject }, { requiredKeys: ['hooks'] }),
  serialize: json,
  async load(dir, root, text) {
    const plugin = path.join(root, 'plugin');
    const file = path.join(plugin, 'hooks', 'hooks.json');
    dir.write(path.relative(dir.root, file), text);
    const config = await loadConfig({ cwd: root, homeDir: root, discover: false, plugins: [plugin] });
    return { file, hooks: config.hooks, diagnostics: config.diagnostics };
  },
  checkArgs: (root) => ['check', path.join(root, 'plugin', 'hooks', 'hooks.json'), '--json'],
};

/** Every dialect the engine reads today. Add one entry per new dialect. */
export const DIALECTS: readonly ConfigDialect[] = [claudeSettings, claudePlugin];

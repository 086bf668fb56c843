/**
 * fast-check generators of hook configs in every dialect: mostly well-formed documents with
 * random mistakes mixed in (unknown keys, wrong types, unknown events, bad regexes). Exported
 * for the hardening suites (test/hardening/) as well as test/dialects/property.test.ts.
 */
import fc from 'fast-check';
import { DIALECTS, DIALECT_NAMES } from '../../src/agents/all.js';
import type { DialectName } from '../../src/agents/types.js';

const junk = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.string(), { maxKeys: 2 }),
);
const matcher = fc.oneof(
  fc.constantFrom('Bash', 'Edit|Write', '*', '', 'mcp__.*', '^run_shell_command$', '[', '(a+)+$', 'Shell|Write', 'startup'),
  fc.string({ maxLength: 12 }),
);
const command = fc.oneof(fc.constantFrom('echo ok', './guard.sh', ''), fc.string({ maxLength: 20 }));
const timeout = fc.oneof(fc.integer({ min: -5, max: 100_000 }), fc.double({ noNaN: true, min: -1, max: 1e6 }), fc.constant(undefined));

/** An object with the given fields, some dropped, sometimes a stray key or a value of the wrong type. */
function entry(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .record(
      { ...fields, stray: fc.option(fc.tuple(fc.constantFrom('tipe', 'commnd', 'extra', 'description'), junk), { nil: undefined }) },
      { requiredKeys: [] },
    )
    .chain((o) => fc.tuple(fc.constant(o), fc.option(fc.tuple(fc.constantFrom(...Object.keys(fields)), junk), { nil: undefined })))
    .map(([o, broken]) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(o)) if (k !== 'stray' && v !== undefined) out[k] = v;
      const stray = o.stray as [string, unknown] | undefined;
      if (stray) out[stray[0]] = stray[1];
      if (broken) out[broken[0]] = broken[1];
      return out;
    });
}

function nativeEvents(name: DialectName): string[] {
  return [...new Set(DIALECTS[name].events.map((e) => e.native))];
}

const eventName = (name: DialectName) =>
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...nativeEvents(name)) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });

function groups(name: DialectName, handler: fc.Arbitrary<unknown>, groupFields: Record<string, fc.Arbitrary<unknown>> = {}) {
  const group = entry({ matcher, hooks: fc.array(handler, { maxLength: 3 }), ...groupFields });
  return fc.dictionary(
    eventName(name),
    fc.oneof({ weight: 5, arbitrary: fc.array(group, { maxLength: 3 }) }, { weight: 1, arbitrary: junk }),
    { maxKeys: 4 },
  );
}

export const dialectDocument: Record<DialectName, fc.Arbitrary<unknown>> = {
  claude: fc.record({
    hooks: groups(
      'claude',
      entry({
        type: fc.constantFrom('command', 'http', 'prompt', 'bogus'),
        command,
        url: fc.constantFrom('https://x.test/h', 'nope'),
        prompt: fc.string(),
        timeout,
        if: fc.constantFrom('Bash(git *)', 'Edit('),
      }),
    ),
  }),
  codex: fc.record({
    hooks: groups(
      'codex',
      entry({
        type: fc.constantFrom('command', 'prompt', 'agent', 'x'),
        command,
        timeout: fc.integer({ min: -1, max: 1000 }),
        timeoutSec: fc.integer({ min: 0, max: 10 }),
        async: fc.boolean(),
        statusMessage: fc.string(),
      }),
    ),
  }),
  gemini: fc.record({
    hooksConfig: fc.option(entry({ enabled: fc.boolean(), disabled: fc.array(fc.string(), { maxLength: 2 }) }), { nil: undefined }),
    hooks: groups(
      'gemini',
      entry({
        type: fc.constantFrom('command', 'plugin', 'x'),
        command,
        name: fc.string(),
        description: fc.string(),
        timeout,
        env: fc.dictionary(fc.string({ maxLength: 5 }), fc.string(), { maxKeys: 2 }),
      }),
      { sequential: fc.boolean() },
    ),
  }),
  qwen: fc.record({
    disableAllHooks: fc.option(fc.boolean(), { nil: undefined }),
    hooks: groups(
      'qwen',
      entry({
        type: fc.constantFrom('command', 'http', 'prompt', 'function'),
        command,
        url: fc.constantFrom('http://127.0.0.1:1/h', ''),
        prompt: fc.string(),
        timeout,
        shell: fc.constantFrom('bash', 'powershell', 'zsh'),
        async: fc.boolean(),
      }),
      { sequential: fc.boolean(), async: fc.boolean() },
    ),
  }),
  kimi: fc.record({
    hooks: fc.oneof(
      {
        weight: 5,
        arbitrary: fc.array(
          entry({
            event: eventName('kimi'),
            matcher,
            command,
            timeout: fc.oneof(fc.integer({ min: -1, max: 700 }), fc.double({ noNaN: true, min: 0, max: 10 })),
          }),
          { maxLength: 4 },
        ),
      },
      { weight: 1, arbitrary: junk },
    ),
  }),
  cursor: fc.record({
    version: fc.oneof(fc.constant(1), junk),
    hooks: fc.dictionary(
      eventName('cursor'),
      fc.oneof(
        fc.array(
          entry({
            command,
            type: fc.constantFrom('command', 'prompt', 'x'),
            prompt: fc.string(),
            timeout,
            matcher,
            failClosed: fc.boolean(),
            loop_limit: fc.oneof(fc.integer({ min: -1, max: 9 }), fc.constant(null)),
          }),
          { maxLength: 3 },
        ),
        junk,
      ),
      { maxKeys: 4 },
    ),
  }),
  copilot: fc.record({
    version: fc.oneof(fc.constant(1), junk),
    hooks: fc.dictionary(
      eventName('copilot'),
      fc.oneof(
        fc.array(
          entry({
            type: fc.constantFrom('command', 'prompt', 'x'),
            bash: command,
            powershell: command,
            cwd: fc.string({ maxLength: 8 }),
            timeoutSec: timeout,
            matcher,
            env: fc.dictionary(fc.string({ maxLength: 5 }), junk, { maxKeys: 2 }),
          }),
          { maxLength: 3 },
        ),
        junk,
      ),
      { maxKeys: 4 },
    ),
  }),
  droid: fc.record({ hooks: groups('droid', entry({ type: fc.constantFrom('command', 'prompt', 'x'), command, timeout })) }),
  // No hooks file: whatever is handed to their reader is refused with the reason.
  opencode: fc.record({ hooks: groups('opencode', entry({ type: fc.constantFrom('command', 'x'), command })) }),
  kilo: fc.record({ hooks: groups('kilo', entry({ type: fc.constantFrom('command', 'x'), command })) }),
  pi: fc.record({ hooks: groups('pi', entry({ type: fc.constantFrom('command', 'x'), command })) }),
  auggie: fc.record({ hooks: groups('auggie', entry({ type: fc.constantFrom('command', 'prompt', 'x'), command, timeout })) }),
  cline: fc.record({ hooks: junk }),
  letta: fc.record({
    hooks: groups('letta', entry({ type: fc.constantFrom('command', 'prompt', 'x'), command, prompt: fc.string(), timeout })),
  }),
};

/** The file name a dialect's document is usually found under. */
export const dialectFile: Record<DialectName, string> = {
  claude: '/p/.claude/settings.json',
  codex: '/p/.codex/hooks.json',
  gemini: '/p/.gemini/settings.json',
  qwen: '/p/.qwen/settings.json',
  kimi: '/home/u/.kimi-code/config.toml',
  cursor: '/p/.cursor/hooks.json',
  copilot: '/p/.github/hooks/hooks.json',
  droid: '/p/.factory/settings.json',
  opencode: '/p/opencode.json',
  kilo: '/p/kilo.json',
  pi: '/p/.pi/settings.json',
  letta: '/p/.letta/settings.json',
  cline: '/p/.clinerules/hooks/PreToolUse',
  auggie: '/p/.augment/settings.json',
};

/** Any dialect with a document of it. */
export const anyDialectDocument = fc.constantFrom(...DIALECT_NAMES).chain((name) => fc.tuple(fc.constant(name), dialectDocument[name]));

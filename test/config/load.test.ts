import path from 'node:path';
import { promises as fs } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVENT_NAMES, catalog } from '../../src/events/catalog.js';
import type { EventSpec } from '../../src/events/spec.js';
import { dedupeHooks, isManagedHook, settingsJsonSchema } from '../../src/config/index.js';
import type { CommandHandler, NormalizedHook } from '../../src/types.js';
import { commandHook, makeFixture, settings, type Fixture } from './helpers.js';

let fx: Fixture;
beforeEach(async () => {
  fx = await makeFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

const commands = (hooks: NormalizedHook[]) => hooks.map((h) => (h.handler as CommandHandler).command);
const errors = (cfg: { diagnostics: Array<{ level: string }> }) => cfg.diagnostics.filter((d) => d.level === 'error');

describe('layers and provenance', () => {
  it('concatenates managed, user, project, local, cli in order with provenance', async () => {
    await fx.write(fx.managed, settings([commandHook('managed')]));
    await fx.write(fx.userFile, settings([commandHook('user')]));
    await fx.write(fx.projectFile, settings([commandHook('project')]));
    await fx.write(fx.localFile, settings([commandHook('local-a'), commandHook('local-b')], 'Edit|Write'));
    const cli = await fx.write('cli.json', { hooks: { Stop: [{ hooks: [commandHook('cli')] }] } });
    const cfg = await fx.load({ settingsFiles: [cli] });
    expect(cfg.diagnostics).toEqual([]);
    expect(commands(cfg.hooks)).toEqual(['managed', 'user', 'project', 'local-a', 'local-b', 'cli']);
    expect(cfg.hooks.map((h) => h.source.kind)).toEqual(['managed', 'user', 'project', 'local', 'local', 'cli']);
    const localB = cfg.hooks[4]!;
    expect(localB).toMatchObject({
      event: 'PreToolUse',
      matcher: 'Edit|Write',
      source: { kind: 'local', file: fx.localFile, path: 'hooks.PreToolUse[0].hooks[1]' },
      id: `local:${fx.localFile}#hooks.PreToolUse[0].hooks[1]`,
    });
    expect(cfg.hooks[5]).toMatchObject({ event: 'Stop', source: { kind: 'cli', file: cli, path: 'hooks.Stop[0].hooks[0]' } });
    expect(cfg.hooks[5]!.matcher).toBeUndefined();
    expect(new Set(cfg.hooks.map((h) => h.id)).size).toBe(6);
    expect(cfg.files.map((f) => [f.kind, f.ok])).toEqual([
      ['managed', true],
      ['user', true],
      ['project', true],
      ['local', true],
      ['cli', true],
    ]);
  });

  it('missing optional files are not errors; a missing --settings file is', async () => {
    const cfg = await fx.load({ settingsFiles: ['nope.json'] });
    expect(cfg.hooks).toEqual([]);
    expect(cfg.diagnostics).toEqual([
      { level: 'error', file: path.join(fx.project, 'nope.json'), path: '(root)', message: 'settings file not found' },
    ]);
  });

  it('a rejected file contributes nothing while other files still load', async () => {
    await fx.write(fx.userFile, settings([commandHook('user')]));
    await fx.write(fx.projectFile, settings([commandHook('bad', { timeout: 'soon' }), commandHook('good')]));
    const cfg = await fx.load();
    expect(commands(cfg.hooks)).toEqual(['user']);
    expect(errors(cfg)).toHaveLength(1);
  });

  it('reports an unreadable settings path (a directory)', async () => {
    await fs.mkdir(fx.projectFile, { recursive: true });
    const cfg = await fx.load();
    expect(cfg.diagnostics).toEqual([
      expect.objectContaining({ level: 'error', file: fx.projectFile, message: expect.stringMatching(/directory/) }),
    ]);
  });

  it('reads the settings file once when the project is the home directory', async () => {
    await fx.write(fx.userFile, settings([commandHook('x')]));
    const cfg = await fx.load({ cwd: fx.home });
    expect(cfg.files.map((f) => f.kind)).toEqual(['user']);
  });

  it('discover:false reads only explicit sources; inline --settings JSON works', async () => {
    await fx.write(fx.userFile, settings([commandHook('user')]));
    const cfg = await fx.load({ discover: false, settingsFiles: [JSON.stringify(settings([commandHook('inline')]))] });
    expect(commands(cfg.hooks)).toEqual(['inline']);
    expect(cfg.hooks[0]!.source.file).toBe('<--settings #1>');
  });

  it('loads a settings file with unrelated top-level keys without diagnostics', async () => {
    await fx.write(fx.projectFile, {
      $schema: 'https://json.schemastore.org/claude-code-settings.json',
      permissions: { allow: ['Bash(npm test)'], deny: [] },
      env: { FOO: '1' },
      model: 'opus',
      enabledPlugins: { 'x@y': true },
      ...settings([commandHook('x')]),
    });
    const cfg = await fx.load();
    expect(cfg.diagnostics).toEqual([]);
    expect(cfg.hooks).toHaveLength(1);
  });

  it('warns about a typo of one of our top-level keys but still loads', async () => {
    await fx.write(fx.projectFile, { hook: {}, disableAllHook: true, Hooks: {}, ...settings([commandHook('x')]) });
    const cfg = await fx.load();
    expect(cfg.hooks).toHaveLength(1);
    expect(cfg.disabled.nonManaged).toBe(false);
    expect(cfg.diagnostics).toEqual([
      { level: 'warning', file: fx.projectFile, path: 'hook', message: 'unknown setting "hook" (did you mean "hooks"?)' },
      {
        level: 'warning',
        file: fx.projectFile,
        path: 'disableAllHook',
        message: 'unknown setting "disableAllHook" (did you mean "disableAllHooks"?)',
      },
      { level: 'warning', file: fx.projectFile, path: 'Hooks', message: 'unknown setting "Hooks" (did you mean "hooks"?)' },
    ]);
  });

  it('treats an empty file as {} with a warning', async () => {
    await fx.write(fx.localFile, '  \n');
    const cfg = await fx.load();
    expect(cfg.diagnostics).toEqual([expect.objectContaining({ level: 'warning', file: fx.localFile })]);
    expect(cfg.files).toEqual([{ file: fx.localFile, kind: 'local', ok: true }]);
  });

  it('merges agentHooks options per key by precedence and unions the HTTP allowlists', async () => {
    await fx.write(fx.userFile, {
      agentHooks: { maxConcurrentHooks: 2, failureBehavior: 'ask' },
      allowedHttpHookUrls: ['https://a.test/*'],
    });
    await fx.write(fx.projectFile, {
      agentHooks: { maxConcurrentHooks: 4 },
      allowedHttpHookUrls: ['https://b.test/*', 'https://a.test/*'],
    });
    await fx.write(fx.managed, { agentHooks: { stopHookMaxConsecutiveBlocks: 3 }, httpHookAllowedEnvVars: ['TOKEN'] });
    const cfg = await fx.load();
    expect(cfg.options).toEqual({ maxConcurrentHooks: 4, failureBehavior: 'ask', stopHookMaxConsecutiveBlocks: 3 });
    expect(cfg.allowedHttpHookUrls).toEqual(['https://a.test/*', 'https://b.test/*']);
    expect(cfg.httpHookAllowedEnvVars).toEqual(['TOKEN']);

    await fx.write(fx.managed, { agentHooks: { maxConcurrentHooks: 1 } });
    expect((await fx.load()).options.maxConcurrentHooks).toBe(1);
  });

  it('leaves the HTTP allowlists undefined when no layer sets them', async () => {
    const cfg = await fx.load();
    expect(cfg.allowedHttpHookUrls).toBeUndefined();
    expect(cfg.httpHookAllowedEnvVars).toBeUndefined();
  });

  it('warns about questionable but valid hooks', async () => {
    const noHttp = EVENT_NAMES.find((e) => {
      const types = (catalog[e] as EventSpec).hookTypes;
      return types && !types.includes('http');
    });
    const noMatcher = EVENT_NAMES.find((e) => (catalog[e] as EventSpec).matcher === null && !(catalog[e] as EventSpec).ifCondition)!;
    const hooks: Record<string, unknown> = {
      [noMatcher]: [{ matcher: 'Bash', hooks: [commandHook('a', { if: 'Bash(git *)' })] }],
      PreToolUse: [{ hooks: [commandHook('node script.js', { args: [], once: true })] }],
    };
    if (noHttp) hooks[noHttp] = [{ hooks: [{ type: 'http', url: 'https://x.test' }, commandHook('kept')] }];
    await fx.write(fx.projectFile, { hooks });
    const cfg = await fx.load();
    const warn = Object.fromEntries(cfg.diagnostics.map((d) => [d.path, d]));
    expect(cfg.diagnostics.every((d) => d.level === 'warning')).toBe(true);
    expect(warn[`hooks.${noMatcher}[0].matcher`]?.message).toMatch(/no matcher support/);
    expect(warn[`hooks.${noMatcher}[0].hooks[0].if`]?.message).toMatch(/never runs/);
    expect(warn['hooks.PreToolUse[0].hooks[0].command']?.message).toMatch(/into 'args'/);
    expect(warn['hooks.PreToolUse[0].hooks[0].once']?.message).toMatch(/skill frontmatter/);
    if (noHttp) {
      expect(warn[`hooks.${noHttp}[0].hooks[0].type`]?.message).toMatch(/skipped/);
      expect(cfg.hooks.filter((h) => h.event === noHttp).map((h) => h.handler.type)).toEqual(['command']);
    }
  });
});

describe('dedup', () => {
  it('identical settings hooks in user, project and local collapse to one: last scope wins, first position kept', async () => {
    await fx.write(fx.userFile, settings([commandHook('same', { timeout: 5 }), commandHook('user-only')]));
    await fx.write(fx.projectFile, settings([commandHook('same', { timeout: 6 })]));
    await fx.write(fx.localFile, settings([commandHook('same', { timeout: 7 })]));
    const cfg = await fx.load();
    expect(commands(cfg.hooks)).toEqual(['same', 'user-only']);
    expect(cfg.hooks[0]!.source).toMatchObject({ kind: 'local', file: fx.localFile });
    expect(cfg.hooks[0]!.handler.timeout).toBe(7);
  });

  it('a match-all matcher is one key whether omitted, empty or "*"', async () => {
    await fx.write(fx.userFile, settings([commandHook('same')], null));
    await fx.write(fx.projectFile, settings([commandHook('same')], '*'));
    await fx.write(fx.localFile, settings([commandHook('same')], ''));
    expect((await fx.load()).hooks).toHaveLength(1);
  });

  it('different if, matcher, event, args or shell are different hooks', async () => {
    await fx.write(fx.userFile, {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [commandHook('x', { if: 'Bash(git *)' }), commandHook('x', { if: 'Bash(rm *)' }), commandHook('x')] },
          { matcher: 'Edit', hooks: [commandHook('x'), commandHook('x', { args: ['1'] }), commandHook('x', { shell: 'sh' })] },
        ],
        PostToolUse: [{ matcher: 'Bash', hooks: [commandHook('x')] }],
      },
    });
    await fx.write(fx.projectFile, settings([commandHook('x', { if: 'Bash(git *)' })]));
    const cfg = await fx.load();
    expect(cfg.hooks).toHaveLength(7);
    expect(cfg.hooks[0]!.source.kind).toBe('project'); // the duplicate `if` hook collapsed into the project copy
  });

  it('a managed hook is never displaced by a non-managed copy', async () => {
    await fx.write(fx.managed, settings([commandHook('policy')]));
    await fx.write(fx.projectFile, settings([commandHook('policy')]));
    const cfg = await fx.load();
    expect(cfg.hooks).toHaveLength(1);
    expect(cfg.hooks[0]!.source.kind).toBe('managed');
  });

  it('identical http, mcp_tool and prompt hooks collapse; different payloads do not', async () => {
    const handlers = [
      { type: 'http', url: 'https://h.test/a' },
      { type: 'mcp_tool', server: 's', tool: 't', input: { a: 1, b: 2 } },
      { type: 'prompt', prompt: 'p' },
      { type: 'agent', prompt: 'p' },
    ];
    await fx.write(fx.userFile, settings(handlers));
    await fx.write(
      fx.projectFile,
      settings([
        { type: 'http', url: 'https://h.test/a', timeout: 3 },
        { type: 'mcp_tool', server: 's', tool: 't', input: { b: 2, a: 1 } },
        { type: 'prompt', prompt: 'p', model: 'm' },
      ]),
    );
    const cfg = await fx.load();
    expect(cfg.hooks.map((h) => `${h.handler.type}:${h.source.kind}`)).toEqual([
      'http:project',
      'mcp_tool:project',
      'prompt:user',
      'agent:user',
      'prompt:project',
    ]);
  });

  it('function hooks are never deduped by dedupeHooks', () => {
    const fn = (id: string): NormalizedHook => ({
      id,
      event: 'Stop',
      handler: { type: 'function', fn: () => undefined },
      source: { kind: 'sdk', path: id },
      dedupKey: 'same',
    });
    expect(dedupeHooks([fn('a'), fn('b')]).map((h) => h.id)).toEqual(['a', 'b']);
  });
});

describe('plugins', () => {
  async function plugin(dir: string, hooksJson: unknown, manifestName?: string) {
    await fx.write(`${dir}/hooks/hooks.json`, hooksJson);
    if (manifestName) await fx.write(`${dir}/.claude-plugin/plugin.json`, { name: manifestName, version: '1.0.0' });
    return path.join(fx.root, dir);
  }
  const scriptHooks = {
    description: 'x',
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [commandHook('${CLAUDE_PLUGIN_ROOT}/hook.sh')] }] },
  };

  it('two plugins with identical ${CLAUDE_PLUGIN_ROOT}/hook.sh never collapse', async () => {
    const a = await plugin('plugins/alpha', scriptHooks);
    const b = await plugin('plugins/beta', scriptHooks, 'beta-plugin');
    const cfg = await fx.load({ plugins: [a, { root: b, id: 'beta-plugin@market' }] });
    expect(cfg.diagnostics).toEqual([]);
    expect(commands(cfg.hooks)).toEqual([`${a}/hook.sh`, `${b}/hook.sh`]);
    expect(cfg.hooks[0]!.dedupKey).not.toBe(cfg.hooks[1]!.dedupKey);
    expect(cfg.hooks[0]!.source).toEqual({
      kind: 'plugin',
      file: path.join(a, 'hooks', 'hooks.json'),
      path: 'hooks.PreToolUse[0].hooks[0]',
      pluginRoot: a,
      pluginName: 'alpha',
      pluginId: 'alpha@local',
      pluginData: path.join(fx.home, '.claude', 'plugins', 'data', 'alpha'),
    });
    expect(cfg.hooks[1]!.source).toMatchObject({ pluginName: 'beta-plugin', pluginId: 'beta-plugin@market' });
  });

  it('a plugin hook identical to a settings hook does not collapse with it', async () => {
    const a = await plugin('p', { hooks: settings([commandHook('echo hi')]).hooks });
    await fx.write(fx.userFile, settings([commandHook('echo hi')]));
    expect((await fx.load({ plugins: [a] })).hooks.map((h) => h.source.kind)).toEqual(['user', 'plugin']);
  });

  it('the same plugin listed twice collapses', async () => {
    const a = await plugin('p', scriptHooks);
    expect((await fx.load({ plugins: [a, a] })).hooks).toHaveLength(1);
  });

  it('substitutes CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA in command and args', async () => {
    const a = await plugin('p', {
      hooks: {
        PostToolUse: [
          { hooks: [commandHook('node', { args: ['${CLAUDE_PLUGIN_ROOT}/a.js', '--data=${CLAUDE_PLUGIN_DATA}', '${OTHER}'] })] },
        ],
      },
    });
    const cfg = await fx.load({ plugins: [{ root: a, dataDir: 'state' }] });
    const h = cfg.hooks[0]!.handler as CommandHandler;
    expect(h.args).toEqual([`${a}/a.js`, `--data=${path.join(fx.project, 'state')}`, '${OTHER}']);
    expect(cfg.hooks[0]!.source.pluginData).toBe(path.join(fx.project, 'state'));
  });

  it('a plugin without hooks/hooks.json has no hooks; a missing plugin dir is an error', async () => {
    await fs.mkdir(path.join(fx.root, 'empty'));
    const cfg = await fx.load({ plugins: [path.join(fx.root, 'empty'), path.join(fx.root, 'missing')] });
    expect(cfg.hooks).toEqual([]);
    expect(cfg.diagnostics).toEqual([
      expect.objectContaining({ level: 'error', file: path.join(fx.root, 'missing'), message: 'plugin directory not found' }),
    ]);
  });

  it('an invalid plugin hooks.json is rejected with its file and path', async () => {
    const a = await plugin('p', { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'x', timeout: -1 }] }] } });
    const cfg = await fx.load({ plugins: [a] });
    expect(cfg.hooks).toEqual([]);
    expect(cfg.diagnostics).toEqual([
      expect.objectContaining({ level: 'error', file: path.join(a, 'hooks', 'hooks.json'), path: 'hooks.PreToolUse[0].hooks[0].timeout' }),
    ]);
  });
});

describe('skills', () => {
  it('loads frontmatter hooks with skill provenance and root-prefixed dedup', async () => {
    const root = path.join(fx.root, 'skills', 'secure');
    await fx.write(fx.userFile, settings([commandHook('${CLAUDE_PLUGIN_ROOT}/check.sh')]));
    const cfg = await fx.load({
      skills: [
        { root, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [commandHook('${CLAUDE_PLUGIN_ROOT}/check.sh', { once: true })] }] } },
      ],
    });
    expect(cfg.diagnostics).toEqual([]);
    expect(cfg.hooks).toHaveLength(2);
    expect(cfg.hooks[1]).toMatchObject({
      handler: { command: `${root}/check.sh`, once: true },
      source: {
        kind: 'skill',
        skillRoot: root,
        skillName: 'secure',
        file: path.join(root, 'SKILL.md'),
        path: 'hooks.PreToolUse[0].hooks[0]',
      },
    });
  });

  it('reports invalid frontmatter hooks with hooks.* paths', async () => {
    const cfg = await fx.load({ skills: [{ root: 'x', hooks: { PreToolUse: [{ hooks: [{ type: 'command' }] }] } }] });
    expect(cfg.diagnostics[0]).toMatchObject({ path: 'hooks.PreToolUse[0].hooks[0].command', level: 'error' });
    const notObject = await fx.load({ skills: [{ root: 'x', hooks: 'nope' }] });
    expect(notObject.diagnostics[0]).toMatchObject({ path: 'hooks', message: 'expected object, got string' });
  });
});

describe('disableAllHooks', () => {
  beforeEach(async () => {
    await fx.write(fx.managed, settings([commandHook('managed')]));
  });
  const write = async (file: string, value: boolean | undefined, cmd: string) =>
    fx.write(file, settings([commandHook(cmd)], 'Bash', value === undefined ? {} : { disableAllHooks: value }));

  it('a project false overrides a user true', async () => {
    await write(fx.userFile, true, 'user');
    await write(fx.projectFile, false, 'project');
    const cfg = await fx.load();
    expect(commands(cfg.hooks)).toEqual(['managed', 'user', 'project']);
    expect(cfg.disabled).toEqual({ all: false, nonManaged: false });
  });

  it('a non-managed true disables all but managed hooks (managed plugins exempt too)', async () => {
    await write(fx.userFile, false, 'user');
    await write(fx.projectFile, true, 'project');
    await fx.write('mp/hooks/hooks.json', settings([commandHook('managed-plugin')]));
    await fx.write('up/hooks/hooks.json', settings([commandHook('user-plugin')]));
    const cfg = await fx.load({
      plugins: [{ root: path.join(fx.root, 'mp'), managed: true }, path.join(fx.root, 'up')],
      skills: [{ root: 's', hooks: settings([commandHook('skill')]).hooks }],
    });
    expect(commands(cfg.hooks)).toEqual(['managed', 'managed-plugin']);
    expect(cfg.disabled).toMatchObject({ all: false, nonManaged: true, reason: expect.stringContaining(fx.projectFile) });
  });

  it('--settings true takes precedence over local false; local over project', async () => {
    await write(fx.projectFile, true, 'project');
    await write(fx.localFile, false, 'local');
    expect(commands((await fx.load()).hooks)).toEqual(['managed', 'project', 'local']);
    const cfg = await fx.load({ settingsFiles: ['{"disableAllHooks": true}'] });
    expect(commands(cfg.hooks)).toEqual(['managed']);
    expect(cfg.disabled.reason).toContain('cli');
  });

  it('the last --settings given wins among cli files', async () => {
    const cfg = await fx.load({ settingsFiles: ['{"disableAllHooks": true}', '{"disableAllHooks": false}'] });
    expect(cfg.disabled.nonManaged).toBe(false);
  });

  it('only a managed true disables managed hooks', async () => {
    await fx.write(fx.managed, settings([commandHook('managed')], 'Bash', { disableAllHooks: true }));
    await write(fx.userFile, false, 'user');
    const cfg = await fx.load();
    expect(cfg.hooks).toEqual([]);
    expect(cfg.disabled).toMatchObject({ all: true, nonManaged: true });
  });

  it('a managed false outranks a user true', async () => {
    await fx.write(fx.managed, { disableAllHooks: false });
    await write(fx.userFile, true, 'user');
    expect(commands((await fx.load()).hooks)).toEqual(['user']);
  });

  it('a managed disable survives an unrelated error in the managed file', async () => {
    await fx.write(fx.managed, { disableAllHooks: true, hooks: { Nope: [] } });
    await write(fx.userFile, undefined, 'user');
    const cfg = await fx.load();
    expect(cfg.hooks).toEqual([]);
    expect(cfg.disabled.all).toBe(true);
    expect(errors(cfg)).toHaveLength(1);
  });
});

describe('allowManagedHooksOnly', () => {
  it('keeps only managed hooks and hooks of managed plugins', async () => {
    await fx.write(
      fx.managed,
      settings([commandHook('managed')], 'Bash', { allowManagedHooksOnly: true, allowedHttpHookUrls: ['https://m.test/*'] }),
    );
    await fx.write(fx.userFile, settings([commandHook('user')], 'Bash', { allowedHttpHookUrls: ['https://u.test/*'] }));
    await fx.write(fx.localFile, settings([commandHook('managed')]));
    await fx.write('mp/hooks/hooks.json', settings([commandHook('managed-plugin')]));
    await fx.write('up/hooks/hooks.json', settings([commandHook('user-plugin')]));
    const cfg = await fx.load({ plugins: [path.join(fx.root, 'up'), { root: path.join(fx.root, 'mp'), managed: true }] });
    expect(cfg.managedOnly).toBe(true);
    expect(commands(cfg.hooks)).toEqual(['managed', 'managed-plugin']);
    expect(cfg.hooks[0]!.source.kind).toBe('managed'); // the local copy was filtered, not merged
    expect(cfg.hooks.every(isManagedHook)).toBe(true);
    expect(cfg.allowedHttpHookUrls).toEqual(['https://m.test/*']);
  });

  it('is ignored, with a warning, outside managed settings', async () => {
    await fx.write(fx.userFile, settings([commandHook('user')], 'Bash', { allowManagedHooksOnly: true }));
    const cfg = await fx.load();
    expect(cfg.managedOnly).toBe(false);
    expect(commands(cfg.hooks)).toEqual(['user']);
    expect(cfg.diagnostics).toEqual([expect.objectContaining({ level: 'warning', path: 'allowManagedHooksOnly' })]);
  });
});

describe('JSON Schema export', () => {
  it('is JSON with every catalog event as a property of hooks', () => {
    const schema = JSON.parse(JSON.stringify(settingsJsonSchema())) as {
      $schema: string;
      properties: Record<string, { properties?: Record<string, unknown>; additionalProperties?: unknown }>;
    };
    expect(schema.$schema).toContain('2020-12');
    const hooks = schema.properties.hooks!;
    expect(Object.keys(hooks.properties!).sort()).toEqual([...EVENT_NAMES].sort());
    expect(hooks.additionalProperties).toBe(false);
    for (const key of ['disableAllHooks', 'allowManagedHooksOnly', 'allowedHttpHookUrls', 'httpHookAllowedEnvVars', 'agentHooks']) {
      expect(schema.properties).toHaveProperty(key);
    }
    // Handlers live once in $defs (test/cli/schema.test.ts validates with ajv).
    const handlers = JSON.stringify((schema as unknown as { $defs: Record<string, unknown> }).$defs.hook);
    for (const t of ['command', 'http', 'mcp_tool', 'prompt', 'agent']) expect(handlers).toContain(`"const":"${t}"`);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandHook, makeFixture, settings, type Fixture } from './helpers.js';
import { findJsonSyntaxError, parseJson } from '../../src/config/index.js';

let fx: Fixture;
beforeEach(async () => {
  fx = await makeFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

async function errorsFor(content: unknown) {
  const file = await fx.write(fx.projectFile, content);
  const cfg = await fx.load();
  return { file, cfg, errors: cfg.diagnostics.filter((d) => d.level === 'error') };
}

describe('strict validation', () => {
  it('an unknown handler key is a warning with file, dotted path and "did you mean"; the hook still loads', async () => {
    const { file, cfg, errors } = await errorsFor({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [commandHook('a'), { type: 'command', command: 'b', tipe: 'x' }] }] },
    });
    expect(errors).toEqual([]);
    const warnings = cfg.diagnostics.filter((d) => d.level === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ file, path: 'hooks.PreToolUse[0].hooks[1].tipe' });
    expect(warnings[0]!.message).toMatch(/unknown key/);
    expect(warnings[0]!.message).toMatch(/did you mean "type"/);
    expect(cfg.hooks.map((h) => (h.handler as { command: string }).command)).toEqual(['a', 'b']);
    expect(cfg.hooks[1]!.handler).not.toHaveProperty('tipe');
    expect(cfg.files).toEqual([{ file, kind: 'project', ok: true }]);
  });

  it('names the hook type when a key belongs to another type (a warning)', async () => {
    const { cfg } = await errorsFor(settings([commandHook('a', { url: 'https://x.test' })]));
    const w = cfg.diagnostics.find((d) => d.path === 'hooks.PreToolUse[0].hooks[0].url');
    expect(w?.level).toBe('warning');
    expect(w?.message).toContain("'command' hook");
  });

  it('suggests a close key; the missing required field stays an error', async () => {
    const { cfg, errors } = await errorsFor(settings([{ type: 'command', comand: 'x' }]));
    const unknown = cfg.diagnostics.find((e) => e.path.endsWith('.comand'));
    expect(unknown?.level).toBe('warning');
    expect(unknown?.message).toMatch(/did you mean "command"/);
    expect(errors.some((e) => e.path === 'hooks.PreToolUse[0].hooks[0].command' && /missing/.test(e.message))).toBe(true);
  });

  it('unknown matcher-group keys (a hand-written description) are warnings', async () => {
    const { cfg, errors } = await errorsFor({
      hooks: { PreToolUse: [{ matcher: 'Bash', description: 'guard', hooks: [commandHook('a')] }] },
    });
    expect(errors).toEqual([]);
    expect(cfg.diagnostics).toEqual([expect.objectContaining({ level: 'warning', path: 'hooks.PreToolUse[0].description' })]);
    expect(cfg.hooks).toHaveLength(1);
  });

  it('rejects an unknown event and suggests the closest event name', async () => {
    const { errors } = await errorsFor({ hooks: { PreTooluse: [{ hooks: [commandHook('a')] }], stop: [] } });
    const byPath = Object.fromEntries(errors.map((e) => [e.path, e.message]));
    expect(byPath['hooks.PreTooluse']).toMatch(/unknown event "PreTooluse" \(did you mean "PreToolUse"\?\)/);
    expect(byPath['hooks.stop']).toMatch(/did you mean "Stop"/);
  });

  it('rejects an unknown event with no close name without a suggestion', async () => {
    const { errors } = await errorsFor({ hooks: { Zzzzzzzzzzzz: [] } });
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toBe('unknown event "Zzzzzzzzzzzz"');
  });

  it('reports wrong types with expected and actual', async () => {
    const { errors } = await errorsFor(settings([commandHook('a', { timeout: '10', async: 'yes' })]));
    const byPath = Object.fromEntries(errors.map((e) => [e.path, e.message]));
    expect(byPath['hooks.PreToolUse[0].hooks[0].timeout']).toBe('expected number, got string');
    expect(byPath['hooks.PreToolUse[0].hooks[0].async']).toBe('expected boolean, got string');
  });

  it('reports a missing command and an empty command', async () => {
    const { errors } = await errorsFor({
      hooks: { PreToolUse: [{ hooks: [{ type: 'command' }, { type: 'command', command: '' }] }] },
    });
    const byPath = Object.fromEntries(errors.map((e) => [e.path, e.message]));
    expect(byPath['hooks.PreToolUse[0].hooks[0].command']).toMatch(/missing required field/);
    expect(byPath['hooks.PreToolUse[0].hooks[1].command']).toBe('must not be empty');
  });

  it('reports a matcher that is not a string', async () => {
    const { errors } = await errorsFor({ hooks: { PreToolUse: [{ matcher: ['Bash'], hooks: [commandHook('a')] }] } });
    expect(errors).toEqual([expect.objectContaining({ path: 'hooks.PreToolUse[0].matcher', message: 'expected string, got array' })]);
  });

  it('reports unknown and missing hook types, bad enums, bad numbers', async () => {
    const { errors } = await errorsFor({
      hooks: {
        PreToolUse: [
          {
            hooks: [
              { type: 'shell', command: 'x' },
              { command: 'x' },
              commandHook('x', { shell: 'zsh', timeout: 0, failureBehavior: 'explode' }),
              { type: 'http', url: 'ftp://example.com' },
            ],
          },
        ],
      },
      agentHooks: { maxConcurrentHooks: 0, stdinLimitBytes: 1.5, retries: 3 },
      disableAllHooks: 'yes',
    });
    const byPath = Object.fromEntries(errors.map((e) => [e.path, e.message]));
    expect(byPath['hooks.PreToolUse[0].hooks[0].type']).toMatch(
      /unknown hook type "shell" \(expected one of command, http, mcp_tool, prompt, agent\)/,
    );
    expect(byPath['hooks.PreToolUse[0].hooks[1].type']).toMatch(/missing required field 'type'/);
    expect(byPath['hooks.PreToolUse[0].hooks[2].shell']).toBe('expected one of "bash", "sh", "powershell", got "zsh"');
    expect(byPath['hooks.PreToolUse[0].hooks[2].timeout']).toBe('must be > 0');
    expect(byPath['hooks.PreToolUse[0].hooks[2].failureBehavior']).toMatch(/expected one of "ignore", "ask", "deny"/);
    expect(byPath['hooks.PreToolUse[0].hooks[3].url']).toMatch(/invalid url/);
    expect(byPath['agentHooks.maxConcurrentHooks']).toBe('must be >= 1');
    expect(byPath['agentHooks.stdinLimitBytes']).toMatch(/expected int/);
    expect(byPath['agentHooks.retries']).toMatch(/unknown option "retries"/);
    expect(byPath.disableAllHooks).toBe('expected boolean, got string');
  });

  it('quotes non-identifier keys in paths', async () => {
    const { errors } = await errorsFor({ hooks: { 'Pre Tool': [] } });
    expect(errors[0]!.path).toBe('hooks["Pre Tool"]');
  });

  it('reports a non-object document at the root path', async () => {
    const { errors } = await errorsFor('[1, 2]');
    expect(errors).toEqual([expect.objectContaining({ path: '(root)', message: 'expected object, got array' })]);
  });

  it('warns about an unknown top-level key of a plugin hooks.json', async () => {
    await fx.write('plug/hooks/hooks.json', { description: 'x', hook: {}, hooks: {} });
    const cfg = await fx.load({ plugins: [`${fx.root}/plug`] });
    expect(cfg.diagnostics).toEqual([
      expect.objectContaining({ level: 'warning', path: 'hook', message: 'unknown key "hook" ignored (did you mean "hooks"?)' }),
    ]);
  });
});

describe('JSON syntax errors', () => {
  it('reports line:column in the file', async () => {
    const text = '{\n  "hooks": {\n    "PreToolUse": [ { "hooks": [ } ]\n  }\n}\n';
    const { file, cfg, errors } = await errorsFor(text);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.file).toBe(file);
    expect(errors[0]!.path).toBe('(root)');
    expect(errors[0]!.message).toMatch(/^invalid JSON at 3:34: /);
    expect(cfg.files[0]!.ok).toBe(false);
  });

  it.each([
    ['{"a": 1,}', '1:8', /trailing comma/],
    ['[1, 2,]', '1:6', /trailing comma/],
    ['{"a" 1}', '1:6', /expected ':'/],
    ['{a: 1}', '1:2', /property name in double quotes/],
    ['{"a": 1} x', '1:10', /after the end/],
    ['{"a": "b\nc"}', '1:9', /control character/],
    ['{"a": tru}', '1:7', /where a value was expected/],
    ['{"a": 01}', '1:8', /expected ','/],
    ['{\n\n  "a": [1 2]', '3:11', /expected ',' or '\]'/],
    ['{"a": [', '1:8', /unexpected end/],
    ['{"a": "\\x"}', '1:8', /invalid escape/],
    ['{"a": "abc', '1:7', /unterminated string/],
  ])('%j → %s', (text, where, message) => {
    const r = parseJson(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.message).toContain(`at ${where}:`);
      expect(r.message).toMatch(message);
    }
  });

  it('accepts a BOM and reports valid JSON as valid', () => {
    expect(parseJson('\uFEFF{"a": [1, -2.5e3, true, null, "\\u00e9"]}')).toEqual({ ok: true, value: { a: [1, -2500, true, null, 'é'] } });
    expect(findJsonSyntaxError('{"a": [1, {"b": []}]}')).toBeUndefined();
  });

  it('locates errors in pathologically deep nesting without overflowing', () => {
    const text = `${'['.repeat(200_000)}}`;
    expect(findJsonSyntaxError(text)).toEqual({ offset: 200_000, message: expect.stringMatching(/where a value was expected/) });
  });
});

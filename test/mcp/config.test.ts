import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { expandEnv, loadMcpConfigFile, parseMcpConfig } from '../../src/mcp/config.js';
import { lookupPath, parsePath, substituteInput } from '../../src/mcp/substitute.js';
import { tempDir, type TempDir } from '../helpers/tmp.js';

let dir: TempDir;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.cleanup());

describe('MCP config files', () => {
  it('reads stdio servers in the .mcp.json shape', () => {
    const file = dir.json('mcp.json', {
      mcpServers: {
        scan: { command: 'node', args: ['server.mjs', '--port', '${PORT:-0}'], env: { TOKEN: '${SCAN_TOKEN}' }, cwd: 'srv' },
        plain: { type: 'stdio', command: '/usr/bin/scan' },
      },
    });
    const r = loadMcpConfigFile(file, { env: { SCAN_TOKEN: 't0k' } });
    expect(r.diagnostics).toEqual([]);
    expect(r.servers).toEqual({
      scan: { command: 'node', args: ['server.mjs', '--port', '0'], env: { TOKEN: 't0k' }, cwd: dir.path('srv') },
      plain: { command: '/usr/bin/scan' },
    });
  });

  it('path-qualified errors for every invalid field', () => {
    const r = parseMcpConfig(
      {
        mcpServers: {
          a: { command: '' },
          b: { command: 'x', args: ['ok', 3] },
          c: { command: 'x', env: { K: 1 } },
          d: { command: 'x', tipe: 'stdio' },
          e: 'node server.js',
        },
        extra: true,
      },
      { file: '/p/mcp.json' },
    );
    const got = r.diagnostics.map((d) => `${d.level} ${d.file}: ${d.path}: ${d.message}`);
    expect(got).toEqual([
      'error /p/mcp.json: extra: unknown key (expected only "mcpServers")',
      'error /p/mcp.json: mcpServers.a.command: must be a non-empty string',
      expect.stringMatching(/^error \/p\/mcp\.json: mcpServers\.b\.args\[1\]: .*string/),
      expect.stringMatching(/^error \/p\/mcp\.json: mcpServers\.c\.env\.K: .*string/),
      'error /p/mcp.json: mcpServers.d: unknown key(s): tipe',
      expect.stringMatching(/^error \/p\/mcp\.json: mcpServers\.e: .*object/),
    ]);
    expect(r.servers).toEqual({});
  });

  it('skips servers of other transports with a warning', () => {
    const r = parseMcpConfig({ mcpServers: { remote: { type: 'http', url: 'https://example.invalid/mcp' }, local: { command: 'x' } } });
    expect(r.servers).toEqual({ local: { command: 'x' } });
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        level: 'warning',
        path: 'mcpServers.remote.type',
        message: expect.stringMatching(/"http" servers are not started by agent-hooks \(stdio only\)/),
      }),
    ]);
  });

  it('an unset variable without default stays literal and is reported', () => {
    const r = parseMcpConfig({ mcpServers: { s: { command: 'x', args: ['${NOPE_UNSET_VAR}'] } } }, { env: {} });
    expect(r.servers.s!.args).toEqual(['${NOPE_UNSET_VAR}']);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        level: 'warning',
        path: 'mcpServers.s.args[0]',
        message: expect.stringMatching(/NOPE_UNSET_VAR is not set/),
      }),
    ]);
  });

  it('unreadable files, invalid JSON and wrong shapes are diagnostics, never throws', () => {
    expect(loadMcpConfigFile(dir.path('missing.json')).diagnostics[0]).toMatchObject({
      level: 'error',
      path: '(file)',
      message: expect.stringMatching(/cannot read/),
    });
    expect(loadMcpConfigFile(dir.write('bad.json', '{ nope')).diagnostics[0]).toMatchObject({
      level: 'error',
      message: expect.stringMatching(/invalid JSON/),
    });
    expect(parseMcpConfig([]).diagnostics[0]).toMatchObject({ path: '(root)' });
    expect(parseMcpConfig({}).diagnostics[0]).toMatchObject({ path: 'mcpServers', message: 'is required' });
    expect(parseMcpConfig({ mcpServers: [] }).diagnostics[0]).toMatchObject({ path: 'mcpServers' });
  });

  it('expandEnv: ${VAR}, ${VAR:-default} (default only when unset), $VAR untouched', () => {
    const env = { A: 'a', EMPTY: '' };
    expect(expandEnv('${A}-${B:-b}-${EMPTY:-d}-$A-${C:-x:-y}', env)).toBe('a-b--$A-x:-y');
  });
});

describe('${path} substitution', () => {
  const source = { tool_name: 'Edit', tool_input: { file_path: '/a b/c.ts', edits: [{ old: 'x' }], n: 0, ok: false, none: null } };

  it('paths: dots, [n] and .n indices; own properties only', () => {
    expect(parsePath('tool_input.edits[0].old')).toEqual(['tool_input', 'edits', '0', 'old']);
    expect(parsePath(' tool_input.edits.0.old ')).toEqual(['tool_input', 'edits', '0', 'old']);
    expect(parsePath('a b')).toBeUndefined();
    expect(parsePath('')).toBeUndefined();
    expect(lookupPath(source, ['tool_input', 'edits', '0', 'old'])).toBe('x');
    expect(lookupPath(source, ['tool_input', 'constructor'])).toBeUndefined();
    expect(lookupPath(source, ['__proto__'])).toBeUndefined();
    expect(lookupPath(source, ['tool_input', 'edits', 'length'])).toBeUndefined();
  });

  it('falsy values survive as raw values and as text', () => {
    expect(
      substituteInput(
        {
          n: '${tool_input.n}',
          ok: '${tool_input.ok}',
          none: '${tool_input.none}',
          text: '${tool_input.n}/${tool_input.ok}/${tool_input.none}',
        },
        source,
      ),
    ).toEqual({ n: 0, ok: false, none: null, text: '0/false/null' });
  });

  it('does not modify the input and keeps a __proto__ key an ordinary key', () => {
    const input = JSON.parse('{"__proto__": "${tool_name}", "k": ["${tool_name}"]}');
    const out = substituteInput(input, source);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(out.k).toEqual(['Edit']);
    expect(input.k).toEqual(['${tool_name}']);
  });

  it('property: strings without placeholders pass through; substituted text never re-expands', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (plain, value) => {
        fc.pre(!plain.includes('${'));
        const out = substituteInput({ plain, mixed: `<${'${v}'}>`, whole: '${v}' }, { v: value });
        return out.plain === plain && out.mixed === `<${value}>` && out.whole === value;
      }),
    );
  });
});

/** The settings JSON Schema, checked with a real validator (ajv, draft 2020-12). */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { settingsJsonSchema } from '../../src/config/index.js';

const PUBLISHED = fileURLToPath(new URL('../../schema/settings.schema.json', import.meta.url));
const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { files: string[] };

function validator() {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  return ajv.compile(settingsJsonSchema());
}

function errorsOf(value: unknown): string[] {
  const validate = validator();
  validate(value);
  return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

describe('settings JSON Schema', () => {
  it('is compact: $id, $defs with the handler variants once, referenced from every event', () => {
    const s = settingsJsonSchema() as {
      $id: string;
      $defs: Record<string, unknown>;
      properties: { hooks: { properties: Record<string, unknown> } };
    };
    expect(s.$id).toBe('urn:agent-hooks:schema:settings');
    expect(Object.keys(s.$defs)).toEqual(
      expect.arrayContaining(['matcherGroup', 'hook', 'commandHook', 'httpHook', 'mcpToolHook', 'promptHook', 'agentHook']),
    );
    expect(s.properties.hooks.properties.PreToolUse).toEqual({ type: 'array', items: { $ref: '#/$defs/matcherGroup' } });
    expect(JSON.stringify(s).length).toBeLessThan(20_000);
  });

  it('accepts a Claude Code settings file with other keys ($schema, permissions, model)', () => {
    expect(
      errorsOf({
        $schema: 'https://json.schemastore.org/claude-code-settings.json',
        model: 'x',
        permissions: { allow: ['Bash(ls)'] },
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh', timeout: 10 }] }],
          Stop: [{ hooks: [{ type: 'http', url: 'https://example.test/hook' }] }],
        },
      }),
    ).toEqual([]);
  });

  it('errors name the variant the type picks: a command hook missing command is not told about url', () => {
    const errors = errorsOf({ hooks: { PreToolUse: [{ hooks: [{ type: 'command' }] }] } });
    expect(errors).toContain("/hooks/PreToolUse/0/hooks/0 must have required property 'command'");
    expect(errors.join('\n')).not.toMatch(/url|server|prompt/);
    const http = errorsOf({ hooks: { Stop: [{ hooks: [{ type: 'http', command: 'x' }] }] } });
    expect(http).toContain("/hooks/Stop/0/hooks/0 must have required property 'url'");
    expect(http).toContain('/hooks/Stop/0/hooks/0 must NOT have additional properties');
    expect(errorsOf({ hooks: { Stop: [{ hooks: [{ type: 'shell', command: 'x' }] }] } })).toContain(
      '/hooks/Stop/0/hooks/0/type must be equal to one of the allowed values',
    );
    expect(errorsOf({ hooks: { NoSuchEvent: [] } })).toContain('/hooks must NOT have additional properties');
  });

  it('is published in the package, equal to `agent-hooks schema` (regenerate with npm run schema)', () => {
    expect(pkg.files).toContain('schema');
    expect(JSON.parse(readFileSync(PUBLISHED, 'utf8'))).toEqual(JSON.parse(JSON.stringify(settingsJsonSchema())));
  });
});

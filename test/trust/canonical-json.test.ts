/**
 * Every trust record in a user's store holds a digest made by canonicalJson and digestOf: a change
 * to either that moves one byte makes every trusted workspace read as modified. These pin the
 * output for the shapes a canonical config has, against values written down when it was made.
 */
import { describe, expect, it } from 'vitest';
import { canonicalJson, digestOf } from '../../src/trust/digest.js';

describe('canonicalJson and digestOf', () => {
  it('sort keys at every level (integer-like keys first, as JavaScript objects list them), drop undefined members and own __proto__ keys', () => {
    const doc = JSON.parse('{"b":1,"__proto__":{"x":2},"a":[{"\\u005f_proto__":3,"10":0,"9":1,"c":null,"u":"\\u00e9"}],"2":true}');
    expect(canonicalJson(doc)).toBe('{"2":true,"a":[{"9":1,"10":0,"c":null,"u":"é"}],"b":1}');
    expect(canonicalJson({ z: undefined, y: [undefined, Number.NaN, -0], x: { b: 2, a: 1 } })).toBe(
      '{"x":{"a":1,"b":2},"y":[null,null,0]}',
    );
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('give the digest a stored trust record holds for a fixed config', () => {
    const config = {
      version: 1 as const,
      hooks: [
        {
          event: 'PreToolUse',
          matcher: 'Bash',
          handler: { type: 'command', command: 'sh %ROOT%/hooks/a.sh', timeout: 5 },
          source: { kind: 'project' as const, file: '%ROOT%/.claude/settings.json', path: 'hooks.PreToolUse[0].hooks[0]' },
          scripts: ['%ROOT%/hooks/a.sh'],
        },
      ],
      settings: [{ kind: 'project' as const, file: '%ROOT%/.claude/settings.json', settings: { disableAllHooks: false } }],
      scripts: { '%ROOT%/hooks/a.sh': 'sha256:00' },
    };
    // The same as Python's json.dumps(config, sort_keys=True, separators=(',', ':'), ensure_ascii=False), hashed.
    expect(digestOf(config)).toBe('sha256:014ccadd7702c7d4f7fa72f701d0b8e8ebdfc2c63c58e377eb21496072c6aabf');
  });
});

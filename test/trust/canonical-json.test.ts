/**
 * Every trust record in a user's store holds a digest made by canonicalJson and digestOf: a change
 * to either that moves one byte makes every trusted workspace read as modified. These pin the
 * output for the shapes a canonical config has, against values written down when it was made.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalJson, digestOf } from '../../src/trust/digest.js';

/** The definition, as the digests were first computed: JSON.stringify with a sorting replacer. */
function byDefinition(value: unknown): string {
  return (
    JSON.stringify(value, (_k, v: unknown) => {
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        const sorted: Record<string, unknown> = {};
        for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
        return sorted;
      }
      return v;
    }) ?? 'null'
  );
}

// Keys where the orders could part: integer-like keys (which objects list first, in numeric
// order), near-integers that are not array indices, `__proto__`, and ordinary strings; more keys
// than the insertion sort takes, too.
const key = fc.oneof(
  fc.constantFrom(
    '0',
    '1',
    '2',
    '9',
    '10',
    '01',
    '-1',
    '1.5',
    '4294967294',
    '4294967295',
    '99999999999',
    '__proto__',
    'toString',
    '',
    'é',
    'Z',
    'a',
  ),
  fc.string({ maxLength: 4 }),
  fc.string({ maxLength: 2, unit: 'binary' }),
  fc.nat({ max: 30 }).map(String),
);
const leaf = fc.oneof(
  fc.string(),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY, 1e21, 5e-7),
  fc.string({ unit: 'binary' }),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 40 }),
}));

describe('canonicalJson and digestOf', () => {
  it('sort keys at every level (integer-like keys first, as JavaScript objects list them), drop undefined members and own __proto__ keys', () => {
    const doc = JSON.parse('{"b":1,"__proto__":{"x":2},"a":[{"\\u005f_proto__":3,"10":0,"9":1,"c":null,"u":"\\u00e9"}],"2":true}');
    expect(canonicalJson(doc)).toBe('{"2":true,"a":[{"9":1,"10":0,"c":null,"u":"é"}],"b":1}');
    expect(canonicalJson({ z: undefined, y: [undefined, Number.NaN, -0], x: { b: 2, a: 1 } })).toBe(
      '{"x":{"a":1,"b":2},"y":[null,null,0]}',
    );
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('write what the definition writes, for plain data of every shape', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(canonicalJson(v)).toBe(byDefinition(v));
      }),
      { numRuns: 3000 },
    );
    // As JSON.parse makes them: `__proto__` an own key, wherever it is.
    fc.assert(
      fc.property(fc.jsonValue(), (j) => {
        const v = JSON.parse(JSON.stringify(j)) as unknown;
        expect(canonicalJson(v)).toBe(byDefinition(v));
      }),
      { numRuns: 1000 },
    );
  });

  it('take the definition for what is not plain data', () => {
    class Point {
      constructor(
        readonly y: number,
        readonly x: number,
      ) {}
    }
    const odd: unknown[] = [
      new Date(0),
      { at: new Date(0), b: 1 },
      { toJSON: () => ({ z: 1, a: 2 }) },
      Object.assign([1, 2], { toJSON: () => 'arr' }),
      new Point(1, 2),
      [new Map([[1, 2]]), new Set([1])],
      Object.assign(Object.create(null) as object, { b: 1, a: 2 }),
      new String('s'),
      { n: new Number(3) },
      () => 1,
      Symbol('s'),
    ];
    for (const v of odd) expect(canonicalJson(v)).toBe(byDefinition(v));
    expect(() => canonicalJson({ a: 1n })).toThrow(TypeError);
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

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import path from 'node:path';
import { isPathInside } from '../../src/util/path-inside.js';

describe('isPathInside', () => {
  it('counts names that begin with two dots as inside, and only `..` itself as climbing out', () => {
    const cases: Array<[string, string, boolean]> = [
      ['/ws', '/ws', true],
      ['/ws/a', '/ws', true],
      ['/ws/..plugins/p', '/ws', true],
      ['/ws/...', '/ws', true],
      ['/ws/..', '/ws', false],
      ['/ws/../x', '/ws', false],
      ['/wsx', '/ws', false],
      ['/', '/ws', false],
      ['/ws/a/../../ws/b', '/ws', true],
      ['/ws/', '/ws', true],
      ['/anything', '/', true],
    ];
    for (const [child, parent, inside] of cases) expect(isPathInside(child, parent), `${child} in ${parent}`).toBe(inside);
  });

  it('agrees with walking the segments: inside unless a `..` climbs above the start', () => {
    const segment = fc.constantFrom('a', 'b', '.', '..', '..a', '...', 'a..', '.a');
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (segs) => {
        let depth = 0;
        let out = false;
        for (const s of segs) {
          if (s === '..') depth--;
          else if (s !== '.') depth++;
          if (depth < 0) out = true;
        }
        // Where the path ends up is what counts: /ws/.. /ws/b is /ws/b again.
        const end = path.posix.join('/ws', ...segs);
        expect(isPathInside(end, '/ws')).toBe(end === '/ws' || end.startsWith('/ws/'));
        if (!out) expect(isPathInside(end, '/ws')).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('isPathInside on paths in normal form', () => {
  it('says what path.relative says, for any spelling of either path', () => {
    const byRelative = (child: string, parent: string) => {
      const rel = path.relative(parent, child);
      return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
    };
    const segment = fc.constantFrom('', 'a', 'b', 'ab', '.', '..', '..a', '...', 'a.', '.a');
    const spelt = fc.tuple(fc.boolean(), fc.array(segment, { maxLength: 6 })).map(([abs, segs]) => `${abs ? '/' : ''}${segs.join('/')}`);
    fc.assert(
      fc.property(spelt, spelt, (child, parent) => {
        expect(isPathInside(child, parent)).toBe(byRelative(child, parent));
      }),
      { numRuns: 5000 },
    );
  });
});

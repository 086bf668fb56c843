import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderConformanceDoc } from './doc.js';

const DOC = fileURLToPath(new URL('../../docs/conformance.md', import.meta.url));

describe('docs/conformance.md', () => {
  it('is generated from the case table (UPDATE_DOCS=1 npx vitest run test/conformance/doc.test.ts after changing it)', () => {
    const rendered = renderConformanceDoc();
    if (process.env.UPDATE_DOCS === '1') writeFileSync(DOC, rendered);
    expect(readFileSync(DOC, 'utf8')).toBe(rendered);
  });
});

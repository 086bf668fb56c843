/** Modules of one job: no function in src/ over 80 lines (docs/architecture.md). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const MAX_LINES = 80;

/**
 * Functions accepted over the limit for now, keyed `file name` (an anonymous function is named
 * after the function that holds it: `outer/(anonymous)`), each with its length today as a ceiling.
 * A listed function that grows past its ceiling, or is back under the limit, fails the test: the
 * list can only shrink.
 */
const KNOWN_LONG: Record<string, number> = {};

type FunctionNode = ts.FunctionDeclaration | ts.MethodDeclaration | ts.ArrowFunction | ts.FunctionExpression;

function isFunction(n: ts.Node): n is FunctionNode {
  return ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n);
}

/** The function's own name, else the variable or property it is assigned to, else none. */
function ownName(n: FunctionNode): string | undefined {
  if (n.name) return n.name.getText();
  const p = n.parent;
  if (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) return p.name.getText();
  return undefined;
}

/** Every function body in one file: its name and its length, first to last line inclusive. */
function measure(rel: string): Array<{ key: string; line: number; lines: number }> {
  const sf = ts.createSourceFile(rel, readFileSync(join(SRC, rel), 'utf8'), ts.ScriptTarget.Latest, true);
  const out: Array<{ key: string; line: number; lines: number }> = [];
  const visit = (n: ts.Node, outer: string | undefined): void => {
    let name = outer;
    if (isFunction(n) && n.body) {
      name = ownName(n) ?? `${outer ?? ''}${outer ? '/' : ''}(anonymous)`;
      const first = sf.getLineAndCharacterOfPosition(n.body.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(n.body.getEnd()).line;
      out.push({ key: `${rel} ${name}`, line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(n, (c) => visit(c, name));
  };
  visit(sf, undefined);
  return out;
}

test(`no function in src/ over ${MAX_LINES} lines beyond the known ones`, () => {
  const long = new Map<string, { line: number; lines: number }>();
  let seen = 0;
  for (const entry of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
    const rel = entry.replace(/\\/g, '/');
    if (!rel.endsWith('.ts')) continue;
    for (const f of measure(rel)) {
      seen++;
      if (f.lines > MAX_LINES) long.set(f.key, f);
    }
  }
  expect(seen).toBeGreaterThan(1000);
  const show = (key: string) => {
    const f = long.get(key)!;
    return `${key.replace(' ', `:${f.line} `)} (${f.lines} lines)`;
  };
  expect(
    [...long.keys()].filter((k) => !(k in KNOWN_LONG)).map(show),
    `functions over ${MAX_LINES} lines: split them into named steps`,
  ).toEqual([]);
  expect(
    Object.entries(KNOWN_LONG)
      .filter(([k, ceiling]) => long.has(k) && long.get(k)!.lines > ceiling)
      .map(([k, ceiling]) => `${show(k)}, ceiling ${ceiling}`),
    'known long functions that grew past their ceiling',
  ).toEqual([]);
  expect(
    Object.keys(KNOWN_LONG).filter((k) => !long.has(k)),
    `back under ${MAX_LINES} lines (or renamed): remove them from KNOWN_LONG`,
  ).toEqual([]);
});

/**
 * The "may import" column of docs/architecture.md, read as data: test/architecture/imports.test.ts
 * checks every import in src/ against it, so the table and the code cannot drift apart.
 *
 * A row names its folders (`src/x/`) or top-level files (`src/x.ts`) in the first column; its
 * "may import" cell is a list, separated by commas or semicolons, of:
 * - `everything below`: what the rows after this one name;
 * - `each other`: the other folders of the same row;
 * - `node only`: nothing of src/;
 * - a folder's short name (`config`) or a top-level file (`types.ts`): anything in it;
 * - a name with `(types)`: its types only (`import type`, or only `type` names);
 * - a name with `` (`a.ts`, `b.ts` only) ``: those files of it only.
 * Anything else in the cell is an error, so the column never says more than the test checks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** One import in src/: the file that imports and the file it names (both relative to src/). */
export interface Edge {
  from: string;
  to: string;
  /** Erased when compiled: `import type`, only `type` names, or an `import('x').T` type. */
  typeOnly: boolean;
}

/** What a `may import` entry allows in one unit (a folder or a top-level file). */
interface Allowance {
  unit: string;
  typesOnly?: true;
  files?: readonly string[];
}

export interface ImportTable {
  /** Unit → what it may import; a unit absent here is not in the table. */
  allowed: ReadonlyMap<string, readonly Allowance[]>;
  /** Entries of the column that the grammar does not read. */
  errors: string[];
}

/** The unit of a file under src/: its top folder, or the file itself at the top. */
export function unitOf(rel: string): string {
  const slash = rel.indexOf('/');
  return slash === -1 ? rel : rel.slice(0, slash);
}

const UNIT = /^`src\/([a-z-]+\/|[a-z-]+\.ts)`$/;

/** The rows of the folder table (the one whose header is `| folder | owns | may import |`). */
function tableRows(markdown: string): Array<{ units: string[]; cell: string }> {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => /^\|\s*folder\s*\|\s*owns\s*\|\s*may import\s*\|/.test(l));
  if (start === -1) throw new Error('docs/architecture.md has no "| folder | owns | may import |" table');
  const rows: Array<{ units: string[]; cell: string }> = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split(/(?<!\\)\|/).slice(1, -1);
    const units = cells[0]!.split(',').map((u) => {
      const m = UNIT.exec(u.trim());
      if (!m) throw new Error(`unreadable folder cell: ${cells[0]}`);
      return m[1]!.replace(/\/$/, '');
    });
    rows.push({ units, cell: cells.at(-1)!.trim() });
  }
  return rows;
}

/** Split at commas and semicolons outside parentheses. */
function entries(cell: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of cell) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (depth === 0 && (ch === ',' || ch === ';')) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

function readEntry(entry: string, known: ReadonlySet<string>): Allowance | string {
  const m = /^([a-z-]+(?:\.ts)?)(?:\s*\((.+)\))?$/.exec(entry);
  if (!m || !known.has(m[1]!)) return `unknown entry ${JSON.stringify(entry)}`;
  const [, unit, qualifier] = m as unknown as [string, string, string | undefined];
  if (qualifier === undefined) return { unit };
  if (qualifier === 'types') return { unit, typesOnly: true };
  const files = /^((?:`[^`]+`,?\s*)+)only$/.exec(qualifier);
  if (files) return { unit, files: [...files[1]!.matchAll(/`([^`]+)`/g)].map((f) => f[1]!) };
  return `unknown qualifier ${JSON.stringify(qualifier)} in ${JSON.stringify(entry)}`;
}

export function parseImportTable(markdown: string): ImportTable {
  const rows = tableRows(markdown);
  const known = new Set(rows.flatMap((r) => r.units));
  const allowed = new Map<string, Allowance[]>();
  const errors: string[] = [];
  rows.forEach((row, i) => {
    const list: Allowance[] = [];
    for (const entry of entries(row.cell)) {
      if (entry === 'everything below') list.push(...rows.slice(i + 1).flatMap((r) => r.units.map((unit) => ({ unit }))));
      else if (entry === 'each other') list.push(...row.units.map((unit) => ({ unit })));
      else if (entry === 'node only') continue;
      else {
        const a = readEntry(entry, known);
        if (typeof a === 'string') errors.push(`${row.units.join(', ')}: ${a}`);
        else list.push(a);
      }
    }
    for (const unit of row.units) allowed.set(unit, list);
  });
  return { allowed, errors };
}

/** Whether the table allows one import (imports inside a unit are its own business). */
export function allows(table: ImportTable, edge: Edge): boolean {
  const from = unitOf(edge.from);
  const to = unitOf(edge.to);
  if (from === to) return true;
  return (table.allowed.get(from) ?? []).some(
    (a) => a.unit === to && (!a.typesOnly || edge.typeOnly) && (a.files === undefined || a.files.some((f) => edge.to === `${to}/${f}`)),
  );
}

function typeOnlyClause(clause: ts.ImportClause | undefined): boolean {
  if (!clause) return false; // `import './x.js'` runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const b = clause.namedBindings;
  return b !== undefined && ts.isNamedImports(b) && b.elements.length > 0 && b.elements.every((e) => e.isTypeOnly);
}

/** Every relative import of one file (static, re-export, dynamic and `import('x')` types). */
export function importsOf(src: string, rel: string): Edge[] {
  const sf = ts.createSourceFile(rel, readFileSync(join(src, rel), 'utf8'), ts.ScriptTarget.Latest, true);
  const out: Edge[] = [];
  const add = (spec: ts.Node | undefined, typeOnly: boolean): void => {
    if (!spec || !ts.isStringLiteral(spec) || !spec.text.startsWith('.')) return;
    const to = join(rel, '..', spec.text)
      .replace(/\.js$/, '.ts')
      .replace(/\.cjs$/, '.cts');
    out.push({ from: rel, to, typeOnly });
  };
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n)) add(n.moduleSpecifier, typeOnlyClause(n.importClause));
    else if (ts.isExportDeclaration(n))
      add(
        n.moduleSpecifier,
        n.isTypeOnly ||
          (n.exportClause !== undefined && ts.isNamedExports(n.exportClause) && n.exportClause.elements.every((e) => e.isTypeOnly)),
      );
    else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) add(n.arguments[0], false);
    else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument)) add(n.argument.literal, true);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** Every .ts/.cts file under src/, relative to it. */
export function sourceFiles(src: string): string[] {
  return (readdirSync(src, { recursive: true }) as string[])
    .map((f) => f.split('\\').join('/'))
    .filter((f) => /\.c?ts$/.test(f) && !f.endsWith('.d.ts'))
    .sort();
}

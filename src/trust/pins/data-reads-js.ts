/**
 * Data files a JS or TS script reads (issue 39), for imports-js.ts: `readFileSync`, `readFile`
 * (`fs.`, `fs.promises.`, or imported from `node:fs/promises`) of a path built from the script's
 * own place and string literals: `join(__dirname, 'rules.json')`, `path.resolve(__dirname, …)`,
 * `__dirname + '/rules.json'`, `${__dirname}/rules.json`, `import.meta.dirname`,
 * `new URL('./rules.json', import.meta.url)` (with or without `fileURLToPath`),
 * `path.dirname(fileURLToPath(import.meta.url))`, or a `const` bound to one. A file written (`writeFile…`,
 * `appendFile…`) is recorded so that includes.ts never pins it. Any other path is not modelled.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { callArgs, type IncludesBuilder } from './imports-common.js';
import type { Tok } from './imports-js-tokens.js';

const READS = new Set(['readFileSync', 'readFile']);
const WRITES = new Set(['writeFileSync', 'writeFile', 'appendFileSync', 'appendFile']);

/** A value: a path, or a file URL (`import.meta.url`, `new URL(…)`). */
type Val = { p: string } | { u: string } | undefined;

/** Record in `out` the files `toks` (a script at `script`, its real path) reads and writes. */
export function jsDataReads(toks: Tok[], script: string, out: IncludesBuilder): void {
  const vars = new Map<string, Val>();
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!;
    if (t.t !== 'name') continue;
    if ((t.v === 'const' || t.v === 'let' || t.v === 'var') && toks[k + 1]?.t === 'name' && toks[k + 2]?.v === '=') {
      const end = expressionEnd(toks, k + 3);
      vars.set(toks[k + 1]!.v, evaluate(toks.slice(k + 3, end), script, vars));
    } else if ((READS.has(t.v) || WRITES.has(t.v)) && toks[k + 1]?.v === '(') {
      const v = evaluate(callArgs(toks, k + 1).args[0] ?? [], script, vars);
      const file = v === undefined ? undefined : 'p' in v ? v.p : urlPath(v.u);
      if (file !== undefined && path.isAbsolute(file)) out.read(path.normalize(file), WRITES.has(t.v));
    }
  }
}

/** Where the expression starting at `from` ends: a `;` or `,`, or a new line, outside brackets. */
function expressionEnd(toks: Tok[], from: number): number {
  let depth = 0;
  for (let j = from; j < toks.length; j++) {
    const t = toks[j]!;
    if (t.t === 'op' && '([{'.includes(t.v)) depth++;
    else if (t.t === 'op' && ')]}'.includes(t.v)) depth--;
    if (depth < 0 || (depth === 0 && ((t.t === 'op' && (t.v === ';' || t.v === ',')) || (j > from && t.line !== toks[j - 1]!.line))))
      return j;
  }
  return toks.length;
}

/** The value of a path expression, or undefined when it is not one of the forms above. */
function evaluate(toks: Tok[], script: string, vars: Map<string, Val>): Val {
  const parts: Tok[][] = [[]];
  let depth = 0;
  // A `+` inside a template's substitution (`${a + b}`) is no top-level `+`.
  let templates = 0;
  for (const t of toks) {
    if (t.t === 'op' && '([{'.includes(t.v)) depth++;
    else if (t.t === 'op' && ')]}'.includes(t.v)) depth--;
    if (t.piece !== undefined) templates += (t.piece.after ? 0 : 1) - (t.piece.last ? 1 : 0);
    if (depth === 0 && templates === 0 && t.t === 'op' && t.v === '+') parts.push([]);
    else parts[parts.length - 1]!.push(t);
  }
  const values = parts.map((p) => term(p, script, vars));
  if (values.length === 1) return values[0];
  const strings = values.map((v) => (v !== undefined && 'p' in v ? v.p : undefined));
  return strings.every((s) => s !== undefined) ? { p: strings.join('') } : undefined;
}

function term(toks: Tok[], script: string, vars: Map<string, Val>): Val {
  const words = toks.map((t) => (t.t === 'str' ? '"' : t.v)).join(' ');
  if (toks.length === 1 && toks[0]!.t === 'str') return toks[0]!.s === undefined ? undefined : { p: toks[0]!.s };
  if (words === '__dirname' || words === 'import . meta . dirname') return { p: path.dirname(script) };
  if (words === '__filename' || words === 'import . meta . filename') return { p: script };
  if (words === 'import . meta . url') return { u: pathToFileURL(script).href };
  if (toks[0]?.piece !== undefined) return template(toks, script, vars);
  if (toks.length === 1 && toks[0]!.t === 'name') return vars.get(toks[0]!.v);
  // A call: `name(…)`, `a.b.name(…)`, `new URL(…)`, its arguments evaluated.
  const open = toks.findIndex((t) => t.v === '(');
  if (open < 1 || toks[toks.length - 1]!.v !== ')' || callArgs(toks, open).end !== toks.length) return undefined;
  const callee = toks.slice(0, open).map((t) => t.v);
  const fn = callee[callee.length - 1]!;
  const args = callArgs(toks, open).args.map((a) => evaluate(a, script, vars));
  const strings = args.map((a) => (a !== undefined && 'p' in a ? a.p : undefined));
  const known = strings.every((s) => s !== undefined) && strings.length > 0;
  const base = args[1] !== undefined && 'u' in args[1] ? args[1].u : undefined;
  if (callee.join(' ') === 'new URL' && strings[0] !== undefined && base !== undefined && URL.canParse(strings[0], base))
    return { u: new URL(strings[0], base).href };
  if (fn === 'fileURLToPath' && args.length === 1 && args[0] !== undefined && 'u' in args[0]) {
    const p = urlPath(args[0].u);
    return p === undefined ? undefined : { p };
  }
  if (!known || (callee.length !== 1 && !(callee.length === 3 && callee[1] === '.'))) return undefined;
  if (fn === 'join') return { p: path.join(...(strings as string[])) };
  if (fn === 'resolve' && path.isAbsolute(strings[0]!)) return { p: path.resolve(...(strings as string[])) };
  if (fn === 'dirname' && strings.length === 1) return { p: path.dirname(strings[0]!) };
  return undefined;
}

/** A template `…${a}…${b}…` whose substitutions all evaluate to paths: its text with their values. */
function template(toks: Tok[], script: string, vars: Map<string, Val>): Val {
  const at = toks.flatMap((t, j) => (t.piece !== undefined ? [j] : []));
  const pieces = at.map((j) => toks[j]!.piece!);
  // One template, the whole expression: its head first, its end last, no template nested in it.
  if (at[at.length - 1] !== toks.length - 1 || !pieces[pieces.length - 1]!.last || pieces.some((p, k) => p.after !== k > 0))
    return undefined;
  let text = pieces[0]!.text;
  for (let k = 1; k < at.length; k++) {
    const v = evaluate(toks.slice(at[k - 1]! + 1, at[k]), script, vars);
    if (v === undefined || !('p' in v)) return undefined;
    text += v.p + pieces[k]!.text;
  }
  return { p: text };
}

/** The path of a file URL; undefined for another URL or one Node refuses (an encoded `/`). */
function urlPath(u: string): string | undefined {
  if (!u.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(u);
  } catch {
    return undefined;
  }
}

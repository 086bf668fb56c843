/** The tokens of python source for imports-python.ts: names, string values, operators, logical lines. */

export interface Tok {
  t: 'name' | 'str' | 'op' | 'num' | 'nl';
  v: string;
  /** A string's value; undefined for an f-string with a substitution. */
  s?: string | undefined;
  line: number;
}

const OPS = [
  '**=',
  '//=',
  '>>=',
  '<<=',
  '==',
  '!=',
  '<=',
  '>=',
  '+=',
  '-=',
  '*=',
  '/=',
  '//',
  '->',
  ':=',
  '**',
  '%=',
  '&=',
  '|=',
  '^=',
  '@=',
];
const NAME = /[\p{L}_][\p{L}\p{N}_]*/uy;
const NUMBER = /[0-9][0-9A-Za-z_.]*/y;

function matchAt(re: RegExp, text: string, i: number): string | undefined {
  re.lastIndex = i;
  return re.exec(text)?.[0];
}

/** Python tokens: names, strings (with their value), operators, and the end of each logical line. */
export function tokenize(text: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  let line = 1;
  let depth = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') {
      if (depth === 0) toks.push({ t: 'nl', v: '\n', line });
      line++;
      i++;
    } else if (c === '\\' && (text[i + 1] === '\n' || (text[i + 1] === '\r' && text[i + 2] === '\n'))) {
      i += text[i + 1] === '\n' ? 2 : 3;
      line++;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f') i++;
    else if (c === '#') while (i < text.length && text[i] !== '\n') i++;
    else if (c === '"' || c === "'") i = readString(text, i, '', toks, line, (n) => (line += n));
    else if (matchAt(NAME, text, i) !== undefined) {
      const word = matchAt(NAME, text, i)!;
      const q = text[i + word.length];
      if ((q === '"' || q === "'") && /^(r|u|b|f|br|rb|fr|rf)$/i.test(word))
        i = readString(text, i + word.length, word, toks, line, (n) => (line += n));
      else {
        toks.push({ t: 'name', v: word, line });
        i += word.length;
      }
    } else if (matchAt(NUMBER, text, i) !== undefined) {
      const num = matchAt(NUMBER, text, i)!;
      toks.push({ t: 'num', v: num, line });
      i += num.length;
    } else {
      const op = OPS.find((o) => text.startsWith(o, i)) ?? c;
      if ('([{'.includes(op)) depth++;
      else if (')]}'.includes(op) && depth > 0) depth--;
      toks.push({ t: 'op', v: op, line });
      i += op.length;
    }
  }
  toks.push({ t: 'nl', v: '\n', line });
  return toks;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', '\\': '\\', "'": "'", '"': '"', '\n': '' };

/** A string literal from its opening quote at `i`; returns the index after it. */
function readString(text: string, i: number, prefix: string, toks: Tok[], line: number, addLines: (n: number) => void): number {
  const q = text[i]!;
  const delim = text.startsWith(q.repeat(3), i) ? q.repeat(3) : q;
  let j = i + delim.length;
  let value = '';
  while (j < text.length && !text.startsWith(delim, j)) {
    // An unterminated single-quoted string ends at the line's end, as the tokenizer's error does.
    if (text[j] === '\n' && delim.length === 1) break;
    if (text[j] === '\\') {
      const e = text[j + 1] ?? '';
      value += /r/i.test(prefix) ? `\\${e}` : (ESCAPES[e] ?? `\\${e}`);
      j += 2;
    } else value += text[j++];
  }
  addLines((text.slice(i, j).match(/\n/g) ?? []).length);
  const fSub = /f/i.test(prefix) && value.includes('{');
  toks.push({ t: 'str', v: q, s: fSub ? undefined : value, line });
  return Math.min(text.length, j + delim.length);
}

/** Logical statements: split at line ends and `;`. */
export function statements(toks: Tok[]): Tok[][] {
  const out: Tok[][] = [];
  let cur: Tok[] = [];
  for (const t of toks) {
    if (t.t === 'nl' || (t.t === 'op' && t.v === ';')) {
      if (cur.length > 0) out.push(cur);
      cur = [];
    } else cur.push(t);
  }
  return out;
}

export const literal = (arg: Tok[] | undefined): string | undefined => (arg?.length === 1 && arg[0]!.t === 'str' ? arg[0]!.s : undefined);

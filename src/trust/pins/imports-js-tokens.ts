/** The tokens of JS/TS source for imports-js.ts: names, string values, operators; comments, template text and regular expressions skipped. */

export interface Tok {
  t: 'name' | 'str' | 'op' | 'num' | 'regex';
  v: string;
  /** A string's value; undefined for a template with a substitution. */
  s?: string | undefined;
  /**
   * A piece of a template with substitutions: its text, and whether it follows a substitution
   * (`after`) and ends the template (`last`); data-reads-js.ts evaluates `${__dirname}/rules.json`.
   */
  piece?: { text: string; after: boolean; last: boolean };
  line: number;
}

const NAME = /[\p{L}_$][\p{L}\p{N}_$]*/uy;
const NUMBER = /[0-9][0-9A-Za-z_.]*/y;
/** Words after which `/` starts a regular expression, not a division. */
const BEFORE_REGEX = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'yield', 'await']);
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', '\\': '\\', "'": "'", '"': '"', '`': '`', $: '$', '\n': '' };

export class Tokenizer {
  readonly toks: Tok[] = [];
  private i = 0;
  private line = 1;
  /** For each open `${` of a template: the depth of `{` inside it. */
  private readonly templates: number[] = [];

  constructor(private readonly text: string) {
    if (text.startsWith('#!')) this.skipTo('\n');
    while (this.i < text.length) this.next();
  }

  private skipTo(end: string): void {
    const j = this.text.indexOf(end, this.i);
    const stop = j < 0 ? this.text.length : j + (end === '\n' ? 0 : end.length);
    this.line += (this.text.slice(this.i, stop).match(/\n/g) ?? []).length;
    this.i = stop;
  }

  private push(t: Tok['t'], v: string, s?: string): void {
    this.toks.push({ t, v, s, line: this.line });
  }

  private next(): void {
    const { text } = this;
    const c = text[this.i]!;
    if (c === '\n') {
      this.line++;
      this.i++;
    } else if (/\s/.test(c)) this.i++;
    else if (text.startsWith('//', this.i)) this.skipTo('\n');
    else if (text.startsWith('/*', this.i)) this.skipTo('*/');
    else if (c === '"' || c === "'") this.quoted(c);
    else if (c === '`') {
      this.i++;
      this.template(false);
    } else if (c === '/' && this.regexAllowed()) this.regex();
    else if (this.word(NAME, 'name') || this.word(NUMBER, 'num')) return;
    else if (c === '}' && this.templates.length > 0 && this.templates[this.templates.length - 1] === 0) {
      this.templates.pop();
      this.i++;
      this.template(true);
    } else {
      const op = ['...', '?.'].find((o) => text.startsWith(o, this.i)) ?? c;
      if (this.templates.length > 0 && (c === '{' || c === '}')) this.templates[this.templates.length - 1]! += c === '{' ? 1 : -1;
      this.push('op', op);
      this.i += op.length;
    }
  }

  /** A name or number at `this.i`, pushed; false when there is none. */
  private word(re: RegExp, t: 'name' | 'num'): boolean {
    re.lastIndex = this.i;
    if (!re.test(this.text)) return false;
    this.push(t, this.text.slice(this.i, re.lastIndex));
    this.i = re.lastIndex;
    return true;
  }

  private regexAllowed(): boolean {
    const p = this.toks[this.toks.length - 1];
    if (p === undefined) return true;
    if (p.t === 'name') return BEFORE_REGEX.has(p.v);
    return p.t === 'op' && !')]}'.includes(p.v);
  }

  private regex(): void {
    let j = this.i + 1;
    let inClass = false;
    for (; j < this.text.length && this.text[j] !== '\n'; j++) {
      const ch = this.text[j];
      if (ch === '\\') j++;
      else if (ch === '[') inClass = true;
      else if (ch === ']') inClass = false;
      else if (ch === '/' && !inClass) break;
    }
    this.i = j + 1;
    NAME.lastIndex = this.i;
    if (NAME.test(this.text)) this.i = NAME.lastIndex;
    this.push('regex', '/');
  }

  private quoted(q: string): void {
    let j = this.i + 1;
    let value = '';
    for (; j < this.text.length && this.text[j] !== q && this.text[j] !== '\n'; j++) {
      if (this.text[j] === '\\') value += ESCAPES[this.text[++j] ?? ''] ?? this.text[j];
      else value += this.text[j];
    }
    this.push('str', q, value);
    this.i = j + 1;
  }

  /** Template text from `this.i` up to its closing backtick or its next `${`. */
  private template(continued: boolean): void {
    let j = this.i;
    let value = '';
    const startLine = this.line;
    for (; j < this.text.length && this.text[j] !== '`'; j++) {
      if (this.text[j] === '\n') this.line++;
      if (this.text[j] === '\\') value += ESCAPES[this.text[++j] ?? ''] ?? this.text[j];
      else if (this.text.startsWith('${', j)) break;
      else value += this.text[j];
    }
    const last = this.text[j] === '`';
    const whole = last && !continued;
    this.toks.push({
      t: 'str',
      v: '`',
      s: whole ? value : undefined,
      line: startLine,
      ...(whole ? {} : { piece: { text: value, after: continued, last } }),
    });
    if (this.text[j] === '`') this.i = j + 1;
    else {
      this.templates.push(0);
      this.i = j + 2;
    }
  }
}

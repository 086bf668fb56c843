/**
 * Glob and brace words of a shell command as patterns of the paths they may expand to, for the
 * write guard (shell-writes.ts): read loosely, so they match at least what the shell would.
 */

/** A word part as unbash gives it. */
export type Part = { type: string; text: string; value?: string; parts?: readonly Part[] };

/**
 * A target that expands to paths nobody has read: the directory its literal part names, and a
 * regular expression any expanded path below it matches (loosely: a bracket is any one character,
 * a brace or extended glob anything).
 */
export interface GlobTarget {
  readonly base: string;
  readonly rest: RegExp;
  /** The word as written, for a name comparison once the directory is unknown. */
  readonly text: string;
}

const regexEscaped = (v: string): string => v.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
const literalOf = (p: Part): string => p.value ?? (p.parts ?? []).map(literalOf).join('');
const WILD = new Set(['Glob', 'BraceExpansion', 'ExtendedGlob']);

/** A glob's text as a pattern within one path segment: `*` any run, `?` or a bracket any one character. */
export const globSource = (glob: string): string =>
  glob.replace(/\[[^\]]*\]|\*|\?|[^*?[]+|./g, (m) =>
    m === '*' ? '[^/]*' : m === '?' || (m.length > 1 && m.startsWith('[')) ? '[^/]' : regexEscaped(m),
  );

export function globOf(parts: readonly Part[] | undefined): GlobTarget | undefined {
  if (!(parts ?? []).some((p) => WILD.has(p.type))) return undefined;
  let literal = ''; // the literal text before the first wildcard
  let source = '';
  let text = '';
  let tail = ''; // the text from the first wildcard on
  for (const p of parts ?? []) {
    text += p.text;
    if (tail || WILD.has(p.type)) tail += p.text;
    if (p.type === 'Glob') source += globSource(p.text);
    else if (WILD.has(p.type)) source += '.*';
    else {
      source += regexEscaped(literalOf(p));
      if (!tail) literal += literalOf(p);
    }
  }
  // `..` past the first wildcard may leave the literal directory: anything may be named.
  if (tail.includes('..')) return { base: '/', rest: /.*/, text };
  const cut = literal.lastIndexOf('/');
  const base = cut < 0 ? '.' : literal.slice(0, cut) || '/';
  // The pattern below the base: the escaped literal prefix the base took is dropped.
  const rest = source.slice(regexEscaped(literal.slice(0, cut + 1)).length);
  return { base, rest: new RegExp(`^${rest}$`), text };
}

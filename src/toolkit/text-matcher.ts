/** A text matcher of a fixture: a plain string is a substring; `/pattern/flags` is a regular expression. */

export type TextMatcher = { kind: 'substring'; text: string } | { kind: 'regex'; re: RegExp } | { kind: 'invalid'; error: string };

const REGEX_FORM = /^\/(.+)\/([dgimsuvy]*)$/s;

export function parseTextMatcher(value: string): TextMatcher {
  const m = REGEX_FORM.exec(value);
  if (!m) return { kind: 'substring', text: value };
  try {
    // g and y make test() stateful; a matcher must not be.
    return { kind: 'regex', re: new RegExp(m[1]!, m[2]!.replace(/[gy]/g, '')) };
  } catch (err) {
    return { kind: 'invalid', error: `invalid regular expression ${value}: ${(err as Error).message}` };
  }
}

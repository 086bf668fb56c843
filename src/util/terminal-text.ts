/**
 * Hook-controlled text (commands, reasons, messages, matchers, paths, a hook's stdout and
 * stderr) made safe to print on a terminal. A terminal obeys what it is sent: ESC starts
 * colour, cursor moves, screen clears and OSC 52 clipboard writes, CR returns to the start of
 * the line so later text overwrites a command under review, BEL rings, and bidirectional
 * overrides reorder what the eye reads. So every control character (C0, DEL, C1), every
 * invisible format character (bidi embeddings, overrides and isolates, zero-width marks) and
 * the Unicode line and paragraph separators are shown escaped instead: `\x1b`, `\r`, `\u202e`.
 *
 * A newline (and a tab) stays as it is in multi-line text and is shown as `\n` (`\t`) in a
 * one-line field, where a line break could forge a line of its own. Backslashes are left
 * alone, so ordinary commands read as written. JSON output never goes through this: it is
 * exact, and JSON.stringify already escapes control characters.
 */

/** Printable ASCII, which holds no unsafe character: most text is only this. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

let unsafe: RegExp | undefined;

/**
 * The unsafe characters. Cc: C0, DEL, C1. Cf: format (bidi, zero-width...). Zl/Zp: U+2028/U+2029.
 * Cs: lone surrogates. Made on first use: V8 builds the Unicode property sets of such a literal
 * when it is created, ~1.5 M instructions, a tenth of what a dispatch with nothing to run adds to
 * `node -e 0`, and that dispatch prints nothing (docs/performance.md, item 20). One global
 * expression serves: `replace` starts from the beginning and returns the text as it is without a match.
 */
function unsafeCharacters(): RegExp {
  unsafe ??= /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;
  return unsafe;
}

export interface TerminalTextOptions {
  /** A field printed on one line: newlines and tabs are escaped too. */
  oneLine?: boolean;
}

export function forTerminal(text: unknown, opts: TerminalTextOptions = {}): string {
  const s = typeof text === 'string' ? text : text === undefined || text === null ? '' : String(text);
  if (PRINTABLE_ASCII.test(s)) return s;
  return s.replace(unsafeCharacters(), (ch) => {
    if (ch === '\n') return opts.oneLine ? '\\n' : ch;
    if (ch === '\t') return opts.oneLine ? '\\t' : ch;
    if (ch === '\r') return '\\r';
    const cp = ch.codePointAt(0)!;
    return cp < 0x100 ? `\\x${cp.toString(16).padStart(2, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
  });
}

/** forTerminal for a one-line field. */
export function oneLine(text: unknown): string {
  return forTerminal(text, { oneLine: true });
}

/**
 * Placeholders in a shell-form command line, placed with unbash's parse so a value stays one word
 * whatever it holds. Apart from env.ts so that the shell parser loads only for a command that
 * holds a `${CLAUDE_…}` placeholder (command-hook.ts imports this module on demand).
 */
import { forEachChild, parse, type SyntaxNode } from 'unbash';
import { PLACEHOLDER, type PlaceholderVars } from './env.js';

/**
 * Characters a value may contain and still be pasted into a shell command line without
 * changing its meaning inside double quotes or as a plain word: no quotes, `$`, backticks,
 * backslashes, globs, separators, newlines, or a `~` that could start a word. PowerShell
 * gets a tighter set (`@`, `,`, `%` mean something there) but allows backslashes for Windows paths.
 */
const SHELL_SAFE = /^[A-Za-z0-9_\-./:@%+,= ]*$/;
const POWERSHELL_SAFE = /^[A-Za-z0-9_\-./: \\]*$/;

/** A value pasted as a bare word: no whitespace either (the shell would split it). */
const WORD_SAFE = /^[A-Za-z0-9_\-./:@%+,=]*$/;

type QuoteContext = 'unquoted' | 'double' | 'single' | 'literal';

/**
 * Where each `${NAME}` placeholder stands in a POSIX command line: unquoted, inside double
 * quotes, inside single quotes, or in a quoted here-document (literal). From unbash's parse;
 * placeholders it cannot place (inside backticks, or an unparsable line) are left out.
 */
function placeholderContexts(command: string): Map<number, QuoteContext> {
  const out = new Map<number, QuoteContext>();
  let script: ReturnType<typeof parse>;
  try {
    script = parse(command);
  } catch {
    return out;
  }
  const atLiteral = (pos: number, end: number, ctx: QuoteContext) => {
    PLACEHOLDER.lastIndex = 0;
    const text = command.slice(pos, end);
    for (let m = PLACEHOLDER.exec(text); m; m = PLACEHOLDER.exec(text)) out.set(pos + m.index, ctx);
  };
  const visit = (node: SyntaxNode, ctx: QuoteContext): void => {
    switch (node.type) {
      case 'Script':
        if (typeof node.source === 'string') return; // backticks: positions index a decoded copy
        break;
      case 'SingleQuoted':
        atLiteral(node.pos, node.end, 'single');
        return;
      case 'DoubleQuoted':
        forEachChild(node, (c) => visit(c, 'double'));
        return;
      case 'CommandExpansion':
      case 'ProcessSubstitution':
        forEachChild(node, (c) => visit(c, 'unquoted'));
        return;
      case 'HereDoc':
        if (node.delimiter?.quoted) atLiteral(node.body.pos, node.body.end, 'literal');
        else forEachChild(node, (c) => visit(c, 'double'));
        return;
      case 'ParameterExpansion':
        if (
          node.operation === undefined &&
          node.prefix === undefined &&
          node.index === undefined &&
          command.slice(node.pos, node.end) === `\${${node.parameter}}`
        )
          out.set(node.pos, ctx);
        return;
    }
    forEachChild(node, (c) => visit(c, ctx));
  };
  visit(script, 'unquoted');
  return out;
}

/**
 * Placeholders for a shell-form command, substituted so the value stays one word whatever it
 * holds (a project directory may contain a space or a `$`):
 * - unquoted: pasted as is when it is a plain word, else single-quoted (`'/my proj'/x.sh`);
 * - inside double quotes: pasted when safe there, else left as `${NAME}` for the shell to expand
 *   from the exported environment (no splitting, no re-parsing inside double quotes);
 * - inside single quotes: pasted, with any `'` written as `'\''` (as Claude Code pastes, so
 *   single-quoted placeholders work);
 * - where the position cannot be placed (inside backticks): pasted when a plain word, else left
 *   as `${NAME}`.
 * PowerShell: pasted when safe, else `${env:NAME}`.
 */
export function substituteForShell(command: string, vars: PlaceholderVars, shell: 'bash' | 'sh' | 'powershell'): string {
  if (shell === 'powershell') {
    return command.replace(PLACEHOLDER, (match, name: keyof PlaceholderVars) => {
      const value = vars[name];
      if (value === undefined) return match;
      return POWERSHELL_SAFE.test(value) ? value : `\${env:${name}}`;
    });
  }
  if (!command.includes('${CLAUDE_')) return command;
  const contexts = placeholderContexts(command);
  return command.replace(PLACEHOLDER, (match, name: keyof PlaceholderVars, offset: number) => {
    const value = vars[name];
    if (value === undefined) return match;
    switch (contexts.get(offset)) {
      case 'unquoted':
        return WORD_SAFE.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
      case 'double':
        return SHELL_SAFE.test(value) ? value : match;
      case 'single':
        return value.replace(/'/g, `'\\''`);
      case 'literal':
        return value;
      default:
        return WORD_SAFE.test(value) ? value : match;
    }
  });
}

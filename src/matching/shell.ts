/**
 * What a Bash command runs, for `if` conditions such as `Bash(git *)`. Parsing is done by
 * unbash (a typed bash AST with recursively parsed substitutions and error recovery); this
 * file only walks the tree.
 *
 * Per the reference's Bash `if` table:
 *   - every simple command is a subcommand: commands joined by `&&`, `||`, `;`, `|`,
 *     newlines, inside compound commands, and inside `$()`, backticks and `<()`/`>()`
 *   - leading `VAR=value` assignments are not part of a subcommand
 *   - `dynamic` records `$()`, backticks, `$VAR`/`${…}` anywhere, so a pattern that names
 *     more than the command can run the hook anyway
 *   - anything the parser reports as an error makes `ok` false: the caller fails open
 */
import { forEachChild, parse, type Command, type SyntaxNode, type Word, type Assignment } from 'unbash';

export interface SubCommand {
  /** Spellings the pattern is tried against: source text, words re-joined, dequoted words re-joined; with and without wrappers like `timeout 5`. */
  readonly candidates: readonly string[];
  /** The command name itself comes from an expansion (`$CMD push`): it could be anything. */
  readonly dynamicName: boolean;
}

export interface ShellAnalysis {
  readonly ok: boolean;
  readonly subcommands: readonly SubCommand[];
  readonly dynamic: boolean;
  /** The whole command, trimmed, with the first command's leading assignments dropped. */
  readonly whole: readonly string[];
}

/** Longer commands are not parsed (the caller fails open): bounds parse time and memory. */
export const MAX_SHELL_COMMAND_LENGTH = 256 * 1024;

const UNPARSABLE: ShellAnalysis = Object.freeze({ ok: false, subcommands: [], dynamic: true, whole: [] });

const DYNAMIC_PARTS = new Set([
  'CommandExpansion', // $(…) and `…`
  'ProcessSubstitution', // <(…) >(…)
  'SimpleExpansion', // $VAR
  'ParameterExpansion', // ${VAR…}
  'ArithmeticCommandExpansion',
]);

// All rules of one event see the same command; a few cached analyses avoid re-parsing it per rule.
const CACHE_SIZE = 16;
const cache = new Map<string, ShellAnalysis>();

export function analyzeShellCommand(command: string): ShellAnalysis {
  if (typeof command !== 'string' || command.length > MAX_SHELL_COMMAND_LENGTH) return UNPARSABLE;
  const hit = cache.get(command);
  if (hit) return hit;
  let result: ShellAnalysis;
  try {
    result = analyze(command);
  } catch {
    result = UNPARSABLE;
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(command, result);
  return result;
}

function analyze(command: string): ShellAnalysis {
  const script = parse(command);
  let ok = true;
  let dynamic = false;
  let firstNamePos: number | undefined;
  const subcommands: SubCommand[] = [];

  const visit = (node: SyntaxNode, source: string): void => {
    if (node.type === 'Script') {
      // Escaped-backtick scripts own a decoded source; positions below index that string.
      if (typeof node.source === 'string') source = node.source;
      if ('errors' in node && node.errors && node.errors.length > 0) ok = false;
    } else if (DYNAMIC_PARTS.has(node.type)) {
      dynamic = true;
    } else if (node.type === 'Command') {
      const sub = subcommandOf(node, source);
      if (sub) {
        if (firstNamePos === undefined && source === command) firstNamePos = node.name?.pos;
        subcommands.push(sub);
      }
    }
    forEachChild(node, (child) => visit(child, source));
  };
  visit(script, command);

  const whole = new Set<string>([command.trim()]);
  if (firstNamePos !== undefined) whole.add(command.slice(firstNamePos).trim());
  return { ok, subcommands, dynamic, whole: [...whole] };
}

function subcommandOf(cmd: Command, source: string): SubCommand | undefined {
  if (!cmd.name) return undefined; // assignments or redirections only: nothing runs
  const words: (Word | Assignment)[] = [cmd.name, ...cmd.args];
  const dynamicName = (cmd.name.parts ?? []).some((p) => DYNAMIC_PARTS.has(p.type));
  const candidates = new Set<string>();
  for (const start of commandStarts(words)) {
    const rest = words.slice(start);
    const first = rest[0];
    if (!first) continue;
    const raw = source.slice(first.pos, cmd.end).trim();
    if (raw) candidates.add(raw);
    candidates.add(rest.map((w) => w.text).join(' '));
    candidates.add(rest.map((w) => (w.type === 'Word' ? w.value : w.text)).join(' '));
  }
  return { candidates: [...candidates], dynamicName };
}

/**
 * Word indexes where a command may start: 0, and past each process wrapper Claude strips
 * before matching permission rules (`timeout 5 rm x` also reads as `rm x`). Extra starts
 * only add candidates, so a loose option parse costs at most an extra match.
 */
function commandStarts(words: readonly (Word | Assignment)[]): number[] {
  const starts = [0];
  const wordAt = (i: number): string | undefined => {
    const w = words[i];
    return w === undefined ? undefined : w.type === 'Word' ? w.value : w.text;
  };
  let i = 0;
  for (let guard = 0; guard < 8; guard++) {
    const name = wordAt(i);
    let next = i + 1;
    const isOption = (v: string | undefined) => v?.startsWith('-') === true && v !== '--';
    const skipDashDash = () => {
      if (wordAt(next) === '--') next++;
    };
    if (name === 'nohup') {
      skipDashDash();
    } else if (name === 'nice') {
      while (isOption(wordAt(next))) next += wordAt(next) === '-n' ? 2 : 1;
      skipDashDash();
    } else if (name === 'timeout') {
      while (isOption(wordAt(next))) next += wordAt(next) === '-s' || wordAt(next) === '-k' ? 2 : 1;
      skipDashDash();
      next++; // the duration
    } else if (name === 'env') {
      for (;;) {
        const v = wordAt(next);
        if (v === undefined) break;
        if (v === '-u' || v === '-C' || v === '-S') next += 2;
        else if (isOption(v) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(v) || words[next]?.type === 'Assignment') next++;
        else break;
      }
      skipDashDash();
    } else {
      break;
    }
    if (next >= words.length) break;
    starts.push(next);
    i = next;
  }
  return starts;
}

/**
 * What a Bash command runs, for `Bash(…)` rules: `if` conditions and permission rules. Parsing
 * is done by unbash (a typed bash AST with recursively parsed substitutions and error recovery);
 * this file walks the tree, and shell-readings.ts says where each command's command starts.
 *
 *   - every simple command is a subcommand: commands joined by `&&`, `||`, `;`, `|`,
 *     newlines, inside compound commands, and inside `$()`, backticks and `<()`/`>()`
 *   - leading `VAR=value` assignments are not part of a subcommand's spellings
 *   - `dynamic` records `$()`, backticks, `$VAR`/`${…}` anywhere (in a `bash -c` text too), so
 *     a pattern that names more than the command can run the hook anyway
 *   - anything the parser reports as an error makes `ok` false: a guard matches, a grant does not
 *
 * A rule that guards matches when any subcommand matches; a rule that grants covers the command
 * only when it covers every subcommand and the command is `grantable` (if-rule.ts matchBash).
 */
import { forEachChild, parse, type Command, type SyntaxNode, type Word, type WordPart, type Assignment } from 'unbash';
import {
  byBaseName,
  grantStarts,
  guardStarts,
  nestedScripts,
  readsScriptFromStdin,
  stdinScript,
  UNKNOWN_SCRIPT,
  withoutLeadingOptions,
} from './shell-readings.js';

interface SubCommand {
  /**
   * Spellings an allow rule is tried against: the source text and the words re-joined as written,
   * each also past the wrappers that run their command unchanged (`timeout 5 x`: shell-readings.ts).
   */
  readonly candidates: readonly string[];
  /**
   * Further spellings for rules that guard (`if`, deny, ask): the words dequoted, past any
   * command runner (`xargs`, `sudo`, `env`, `find -exec`), by base name (`/bin/rm`), without a
   * program's leading options (`git -C d push`), and the subcommands of a `bash -c` or `eval` text.
   */
  readonly guardCandidates: readonly string[];
  /**
   * The command name, or a word a runner may run (`sudo "$x"`), comes from an expansion (`$CMD
   * push`, `"$x"`): it could be anything.
   */
  readonly dynamicName: boolean;
  /**
   * An allow rule may cover it: no leading `VAR=value` (`LD_PRELOAD=x ls`), no glob, brace or
   * `~` word that expands to words nobody has read, no redirection of output to a file.
   */
  readonly grantable: boolean;
  /**
   * It hands a shell a text that could not be read (`eval 'a "'`, nested too deep) or that is
   * not in the command (`… | sh`, `sh < file`): a guard matches.
   */
  readonly opaque: boolean;
  /** A `bash -c` or `eval` text it runs holds an expansion (ShellAnalysis.dynamic). */
  readonly nestedDynamic: boolean;
}

export interface ShellAnalysis {
  readonly ok: boolean;
  readonly subcommands: readonly SubCommand[];
  readonly dynamic: boolean;
  /** The whole command, trimmed, with the first command's leading assignments dropped. */
  readonly whole: readonly string[];
  /**
   * Every command it runs is a subcommand an allow rule can judge: no function definition, no
   * coprocess, no command of assignments or redirections only.
   */
  readonly grantable: boolean;
}

/** Longer commands are not parsed (the caller fails open): bounds parse time and memory. */
const MAX_SHELL_COMMAND_LENGTH = 256 * 1024;

const UNPARSABLE: ShellAnalysis = Object.freeze({ ok: false, subcommands: [], dynamic: true, whole: [], grantable: false });

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
    result = analyze(command, 0);
  } catch {
    result = UNPARSABLE;
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(command, result);
  return result;
}

/**
 * Shapes an allow rule does not cover, whatever runs inside: a function or coprocess runs later
 * or apart; loops run their body any number of times; Claude Code 2.1.328 refuses a subshell and
 * a brace group under an allow rule that covers the command inside (test/agents/claude-diff).
 */
const UNGRANTABLE_NODES = new Set(['Function', 'Coproc', 'Subshell', 'BraceGroup', 'For', 'ArithmeticFor', 'Select', 'While', 'Case']);

/** Nested `bash -c` and `eval` texts are read this deep; deeper ones are opaque. */
const MAX_NESTING = 3;

function analyze(command: string, depth: number): ShellAnalysis {
  const script = parse(command);
  let ok = true;
  let dynamic = false;
  let grantable = true;
  let firstNamePos: number | undefined;
  const subcommands: SubCommand[] = [];
  // Commands whose standard input is a pipe: every command inside a pipeline's second or later part.
  const piped = new Set<SyntaxNode>();
  const markPiped = (node: SyntaxNode): void => {
    if (node.type === 'Command') piped.add(node);
    forEachChild(node, markPiped);
  };

  const visit = (node: SyntaxNode, source: string): void => {
    if (node.type === 'Script') {
      // Escaped-backtick scripts own a decoded source; positions below index that string.
      if (typeof node.source === 'string') source = node.source;
      if ('errors' in node && node.errors && node.errors.length > 0) ok = false;
    } else if (DYNAMIC_PARTS.has(node.type)) {
      dynamic = true;
    } else if (UNGRANTABLE_NODES.has(node.type)) {
      grantable = false;
    } else if (node.type === 'Pipeline') {
      for (const part of node.commands.slice(1)) markPiped(part);
    } else if (node.type === 'Command') {
      const sub = subcommandOf(node, source, depth, piped.has(node));
      if (sub) {
        if (sub.nestedDynamic) dynamic = true;
        if (firstNamePos === undefined && source === command) firstNamePos = node.name?.pos;
        subcommands.push(sub);
      } else grantable = false; // assignments or redirections only: `X=1`, `> f`
    }
    forEachChild(node, (child) => visit(child, source));
  };
  visit(script, command);

  const whole = new Set<string>([command.trim()]);
  if (firstNamePos !== undefined) whole.add(command.slice(firstNamePos).trim());
  grantable &&= ok && !dynamic && subcommands.every((sub) => sub.grantable && !sub.dynamicName);
  return { ok, subcommands, dynamic, whole: [...whole], grantable };
}

function subcommandOf(cmd: Command, source: string, depth: number, piped: boolean): SubCommand | undefined {
  if (!cmd.name) return undefined;
  const words: (Word | Assignment)[] = [cmd.name, ...cmd.args];
  const values = words.map(wordValue);
  const starts = guardStarts(values);
  const dynamicName = starts.some((i) => {
    const w = words[i];
    return w?.type === 'Word' && computed(w.parts);
  });
  const candidates = new Set<string>();
  const spell = (start: number, into: Set<string>): void => {
    const first = words[start];
    if (!first) return;
    const raw = source.slice(first.pos, cmd.end).trim();
    if (raw) into.add(raw);
    into.add(
      words
        .slice(start)
        .map((w) => w.text)
        .join(' '),
    );
  };
  for (const start of grantStarts(values)) spell(start, candidates);
  const guard = new Set<string>();
  let opaque = false;
  let nestedDynamic = false;
  for (const start of starts) {
    spell(start, guard);
    const rest = values.slice(start);
    guard.add(rest.join(' '));
    for (const reading of [byBaseName(rest), ...withoutLeadingOptions(rest)]) if (reading) guard.add(reading.join(' '));
    const fromStdin = readsScriptFromStdin(rest) ? stdinScript(cmd, piped) : undefined;
    // The script comes from a pipe or a file: what it runs is not in the command.
    if (fromStdin === UNKNOWN_SCRIPT) opaque = true;
    const texts = fromStdin === undefined || fromStdin === UNKNOWN_SCRIPT ? nestedScripts(rest) : [...nestedScripts(rest), fromStdin];
    for (const text of texts) {
      const nested = depth < MAX_NESTING ? analyzeNested(text, depth + 1) : undefined;
      if (!nested?.ok) opaque = true;
      else for (const sub of nested.subcommands) for (const c of [...sub.candidates, ...sub.guardCandidates]) guard.add(c);
      if (nested?.subcommands.some((sub) => sub.opaque || sub.dynamicName)) opaque = true;
      if (nested?.dynamic) nestedDynamic = true;
    }
  }
  for (const c of candidates) guard.delete(c);
  return { candidates: [...candidates], guardCandidates: [...guard], dynamicName, grantable: grantableCommand(cmd), opaque, nestedDynamic };
}

/**
 * Whether a word's value is computed: an expansion, also one inside double quotes (`"$x"`), or a
 * brace or glob expansion (`r{m,}` is `rm r`, `/bin/r?` is `/bin/rm`).
 */
function computed(parts: readonly WordPart[] | undefined): boolean {
  return (parts ?? []).some(
    (p) =>
      DYNAMIC_PARTS.has(p.type) ||
      EXPANDING_PARTS.has(p.type) ||
      ((p.type === 'DoubleQuoted' || p.type === 'LocaleString') && computed(p.parts)),
  );
}

function analyzeNested(text: string, depth: number): ShellAnalysis | undefined {
  try {
    return analyze(text, depth);
  } catch {
    return undefined;
  }
}

function wordValue(w: Word | Assignment): string {
  return w.type === 'Word' ? w.value : w.text;
}

const EXPANDING_PARTS = new Set(['Glob', 'ExtendedGlob', 'BraceExpansion']);
const OUTPUT_REDIRECTS = new Set(['>', '>>', '<>', '>|', '&>', '&>>']);

/** Whether an allow rule can judge the command from its text (SubCommand.grantable). */
function grantableCommand(cmd: Command): boolean {
  if (cmd.prefix.some((p) => p.type === 'Assignment')) return false;
  for (const w of [cmd.name, ...cmd.args]) {
    if (w?.type !== 'Word') continue;
    if (w.text.startsWith('~') || (w.parts ?? []).some((p) => EXPANDING_PARTS.has(p.type))) return false;
  }
  for (const r of cmd.redirects) {
    if (r.type !== 'Redirect') continue; // here-documents and here-strings feed stdin
    if (OUTPUT_REDIRECTS.has(r.operator) && r.target?.value !== '/dev/null') return false;
    if (r.operator === '>&' && r.target !== undefined && !/^\d+-?$|^-$/.test(r.target.value)) return false; // `>& file`
  }
  return true;
}

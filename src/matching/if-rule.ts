/**
 * `if` conditions: one permission rule (Claude Code's syntax) tested against a tool call.
 *
 *   Tool                     the whole tool (`Tool(*)` too)
 *   mcp__server__tool        one MCP tool
 *   mcp__server, mcp__server__*   every tool of that MCP server
 *   Bash(pattern)            shell command, subcommand by subcommand (see shell.ts):
 *                              `git *`   wildcard: `*` is any text, spaces included; a single
 *                                        trailing ` *` is optional, so `git *` matches `git`
 *                              `git commit:*`  legacy prefix: `git commit`, then end or a space
 *                              `npm test`      exact
 *   Edit|Write|MultiEdit|NotebookEdit|ApplyPatch|Read|Glob|Grep|LS(path pattern)
 *                            gitignore-style glob on the tool's path(s) (file-pattern.ts);
 *                            `Edit` rules cover every edit tool (and alone grant one), `Read` rules Read/Glob/Grep/LS
 *   WebFetch(domain:host)    the URL's host; `*.example.com` for subdomains
 *   other Tool(pattern)      wildcard against one primary field (WebSearch: query,
 *                            Agent/Task: subagent_type, Skill: skill, PowerShell: command,
 *                            WebFetch without `domain:`: url); a tool with no known field
 *                            never matches (fail closed) and the rule carries a `warning`
 *
 * The filter is best effort and errs toward running the hook: an unparsable Bash command matches
 * (as the reference says), and so does an internal error while matching.
 */
import { APPLY_PATCH_TOOLS, extractToolPaths, fetchedHost } from './paths.js';
import { compilePathPattern, grantThroughLinks, withGuardReading, type PathPattern } from './file-pattern.js';
import { analyzeShellCommand } from './shell.js';
import { provideIfRules } from './rule-slot.js';

export interface RuleContext {
  /** Working directory of the tool call: relative patterns and paths resolve against it. */
  cwd: string;
  /** Home directory for `~/` patterns and paths; without it `~/` patterns never match. */
  homeDir?: string;
  /** Project root for `/path` patterns; defaults to cwd. */
  projectDir?: string;
  /** Path rules compare names ignoring case (a case-insensitive file system; PathMatchContext.foldCase). */
  foldCase?: boolean;
  /** Path rules compare names ignoring case only, on every platform (PathMatchContext.ignoreCase). */
  ignoreCase?: boolean;
  /**
   * The rule grants (a permission allow rule): it must cover the whole call. A Bash command is
   * covered only when every subcommand is and nothing in it is unknown (shell.ts); every path
   * of a call must match; anything that cannot be judged is not covered. Without it the rule
   * guards (an `if`, a deny or ask rule): any subcommand or path is enough, and what cannot be
   * judged matches.
   */
  grant?: boolean;
}

/** A compiled wildcard/prefix/exact command pattern. */
export interface CommandPattern {
  readonly form: 'wildcard' | 'prefix' | 'exact';
  /** Pattern names more than the command (e.g. `git push *`): runs on `$()`, backticks, `$VAR`. */
  readonly specific: boolean;
  /** Contains a shell operator (`|`, `&`, `;`, newline): also tried against the whole command. */
  readonly spansOperators: boolean;
  test(candidate: string): boolean;
}

interface RuleBase {
  /** The rule text as written. */
  readonly source: string;
  /** Tool name as written in the rule. */
  readonly tool: string;
  /** Set when the rule parses but can never match: surfaced by `check`. */
  readonly warning?: string;
}
export type Rule =
  | (RuleBase & { readonly kind: 'tool' })
  | (RuleBase & { readonly kind: 'mcp-server'; readonly server: string })
  | (RuleBase & {
      readonly kind: 'bash';
      readonly pattern: string;
      /** As written: what a grant covers. */
      readonly command: CommandPattern;
      /** What a guard matches: also with each run of spaces and tabs read as one space. */
      readonly guardCommand: CommandPattern;
    })
  | (RuleBase & {
      readonly kind: 'path';
      readonly pattern: string;
      /** As a guard reads it (`./name` and `name/**` at any depth); `grantPath` as a grant does (file-pattern.ts). */
      readonly path: PathPattern;
      readonly grantPath: PathPattern;
    })
  | (RuleBase & { readonly kind: 'domain'; readonly pattern: string; readonly domain: string; readonly host: CommandPattern })
  | (RuleBase & {
      readonly kind: 'field';
      readonly pattern: string;
      /** tool_input field the pattern is matched against; undefined: never matches. */
      readonly field: string | undefined;
      readonly value: CommandPattern;
    });

/** `unbounded`: a valid rule the linear-time engine cannot match (file-pattern.ts); the hook fails closed (engine/plan.ts). */
export type ParseRuleResult = { ok: true; rule: Rule } | { ok: false; error: string; unbounded?: true };

/** Edit rules apply to every built-in tool that edits files. */
export const EDIT_TOOLS: ReadonlySet<string> = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit', 'ApplyPatch', 'apply_patch']);
/** Read rules apply (best effort, as in Claude) to the tools that read files. */
export const READ_TOOLS: ReadonlySet<string> = new Set(['Read', 'Glob', 'Grep', 'LS']);
const PATH_RULE_TOOLS: ReadonlySet<string> = new Set([...EDIT_TOOLS, ...READ_TOOLS]);
const DIRECTORY_SEARCH_TOOLS: ReadonlySet<string> = new Set(['Glob', 'Grep', 'LS']);
/** Primary tool_input field of tools matched by a plain wildcard. */
const PRIMARY_FIELDS: Readonly<Record<string, string>> = {
  WebSearch: 'query',
  WebFetch: 'url',
  Agent: 'subagent_type',
  Task: 'subagent_type',
  Skill: 'skill',
  PowerShell: 'command',
};

const TOOL_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:-]*$/;
const MCP_SEGMENT = /^[^\s()*]+$/;
const MAX_RULE_LENGTH = 16 * 1024;

export function parseRule(text: string): ParseRuleResult {
  if (typeof text !== 'string') return { ok: false, error: `rule must be a string, got ${typeof text}` };
  const source = text;
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, error: 'empty rule' };
  if (trimmed.length > MAX_RULE_LENGTH) return { ok: false, error: `rule longer than ${MAX_RULE_LENGTH} characters` };

  const open = trimmed.indexOf('(');
  let tool: string;
  let pattern: string | undefined;
  if (open === -1) {
    tool = trimmed;
  } else {
    // Content runs to the last character, so patterns may hold parentheses: `Bash(echo $(date))`.
    if (!trimmed.endsWith(')')) return { ok: false, error: `rule ${JSON.stringify(text)}: missing closing ")"` };
    tool = trimmed.slice(0, open);
    pattern = trimmed.slice(open + 1, -1).trim();
    if (pattern === '')
      return { ok: false, error: `rule ${JSON.stringify(text)}: empty "()"; write ${JSON.stringify(tool)} for the whole tool` };
    // `Bash(a) && Edit(b)`: the reference has no combinators; one handler per condition.
    if (/\)\s*(?:&&|\|\||,)\s*[A-Za-z][\w-]*\(/.test(pattern)) {
      return {
        ok: false,
        error: `rule ${JSON.stringify(text)}: an \`if\` holds exactly one rule (no &&, || or lists); add a handler per condition`,
      };
    }
  }

  if (tool.startsWith('mcp__')) return parseMcpRule(source, tool, pattern);
  if (!TOOL_NAME.test(tool)) {
    return { ok: false, error: `rule ${JSON.stringify(text)}: invalid tool name ${JSON.stringify(tool)}` };
  }
  // `Tool(*)` is the whole tool, as Claude documents for `Bash(*)`.
  if (pattern === undefined || pattern === '*') return { ok: true, rule: { kind: 'tool', source, tool } };

  if (tool === 'Bash') {
    const command = compileCommandPattern(pattern);
    // Claude Code 2.1.328 runs an `if: "Bash(rm  *)"` guard (two spaces) for `rm -f x`
    // (test/agents/claude-diff if-bash-patterns): a guard reads the spaces as one as well.
    const collapsed = pattern.replace(/[ \t]{2,}|\t/g, ' ');
    const guardCommand = collapsed === pattern ? command : eitherPattern(command, compileCommandPattern(collapsed));
    return { ok: true, rule: { kind: 'bash', source, tool, pattern, command, guardCommand } };
  }
  if (PATH_RULE_TOOLS.has(tool)) {
    // Compiled once as written (what a grant reads), then with a guard's wider reading added.
    const granting = compilePathPattern(pattern);
    if (!granting.ok) return { ...granting, error: `rule ${JSON.stringify(text)}: ${granting.error}` };
    const guarding = withGuardReading(granting.pattern);
    if (!guarding.ok) return { ...guarding, error: `rule ${JSON.stringify(text)}: ${guarding.error}` };
    const grantPath = grantThroughLinks(granting.pattern);
    return { ok: true, rule: { kind: 'path', source, tool, pattern, path: guarding.pattern, grantPath } };
  }
  if (tool === 'WebFetch' && pattern.startsWith('domain:')) {
    const domain = pattern.slice('domain:'.length).trim().toLowerCase();
    if (domain === '') return { ok: false, error: `rule ${JSON.stringify(text)}: empty domain` };
    return { ok: true, rule: { kind: 'domain', source, tool, pattern, domain, host: compileCommandPattern(domain) } };
  }
  const field = PRIMARY_FIELDS[tool];
  const rule: Rule = { kind: 'field', source, tool, pattern, field, value: compileCommandPattern(pattern) };
  if (field === undefined) {
    return {
      ok: true,
      rule: {
        ...rule,
        warning: `rule ${JSON.stringify(text)}: no known input field of ${tool} to match a pattern against; it never matches`,
      },
    };
  }
  return { ok: true, rule };
}

function parseMcpRule(source: string, tool: string, pattern: string | undefined): ParseRuleResult {
  const rest = tool.slice('mcp__'.length);
  const sep = rest.indexOf('__');
  const server = sep === -1 ? rest : rest.slice(0, sep);
  const name = sep === -1 ? undefined : rest.slice(sep + 2);
  if (!MCP_SEGMENT.test(server))
    return { ok: false, error: `rule ${JSON.stringify(source)}: invalid MCP server name ${JSON.stringify(server)}` };
  if (name !== undefined && name !== '*' && !MCP_SEGMENT.test(name)) {
    return {
      ok: false,
      error: `rule ${JSON.stringify(source)}: invalid MCP tool name ${JSON.stringify(name)} (only mcp__server__* is a wildcard)`,
    };
  }
  const warning =
    pattern !== undefined && pattern !== '*' ? `rule ${JSON.stringify(source)}: MCP tools take no pattern; it never matches` : undefined;
  if (name === undefined || name === '*') {
    return {
      ok: true,
      rule: warning
        ? { kind: 'field', source, tool, pattern: pattern ?? '', field: undefined, value: NEVER, warning }
        : { kind: 'mcp-server', source, tool, server },
    };
  }
  if (warning) return { ok: true, rule: { kind: 'field', source, tool, pattern: pattern ?? '', field: undefined, value: NEVER, warning } };
  return { ok: true, rule: { kind: 'tool', source, tool } };
}

const NEVER: CommandPattern = Object.freeze({ form: 'exact', specific: false, spansOperators: false, test: () => false });

/**
 * Compile a command-style pattern. Forms, in order: `prefix:*` (legacy prefix), anything with
 * an unescaped `*` (wildcard; `\*` is a literal star), else exact.
 */
export function compileCommandPattern(pattern: string): CommandPattern {
  const spansOperators = /[|&;\n]/.test(pattern);
  if (pattern.endsWith(':*') && pattern.length > 2) {
    const prefix = pattern.slice(0, -2);
    return {
      form: 'prefix',
      specific: /\s/.test(prefix.trim()),
      spansOperators,
      test: (c) => c === prefix || (c.startsWith(prefix) && /^\s/.test(c.slice(prefix.length))),
    };
  }
  // Split on unescaped stars; `\*` stays a literal star.
  const pieces: string[] = [''];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '\\' && pattern[i + 1] === '*') {
      pieces[pieces.length - 1] += '*';
      i++;
    } else if (ch === '*') pieces.push('');
    else pieces[pieces.length - 1] += ch;
  }
  if (pieces.length === 1) {
    const exact = pieces[0] as string;
    return { form: 'exact', specific: /\s/.test(exact.trim()), spansOperators, test: (c) => c === exact };
  }
  // `git *` also matches plain `git`: a single trailing ` *` is optional (word boundary kept).
  const last = pieces[pieces.length - 1];
  const beforeLast = pieces[pieces.length - 2] as string;
  const test =
    pieces.length === 2 && last === '' && beforeLast.endsWith(' ')
      ? (c: string) => c === beforeLast.slice(0, -1) || c.startsWith(beforeLast)
      : (c: string) => wildcardMatch(pieces, c);
  // Literal text before the trailing wildcards: more than one word, or an inner `*`, names more than the command.
  const head = pattern.replace(/[\s*]+$/, '').trim();
  return { form: 'wildcard', specific: /[\s*]/.test(head), spansOperators, test };
}

/** A pattern matching what either matches (a guard's wider reading beside the pattern as written). */
function eitherPattern(a: CommandPattern, b: CommandPattern): CommandPattern {
  return {
    form: a.form,
    specific: a.specific || b.specific,
    spansOperators: a.spansOperators || b.spansOperators,
    test: (c) => a.test(c) || b.test(c),
  };
}

/**
 * Whole-string match of literal pieces joined by `*` (any text, newlines included). Not a RegExp:
 * a backtracking `^a.*b.*c$` is polynomial in the number of stars, and a long command (the model
 * writes it) against a rule like `*rm *-r*f*` would hang the engine. Taking the leftmost occurrence
 * of each inner piece is always safe for `*`-only patterns, so this is O(length × pieces).
 */
function wildcardMatch(pieces: readonly string[], c: string): boolean {
  const first = pieces[0] as string;
  const last = pieces[pieces.length - 1] as string;
  if (c.length < first.length + last.length || !c.startsWith(first) || !c.endsWith(last)) return false;
  const end = c.length - last.length;
  let at = first.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i] as string;
    const found = c.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}

export function matchRule(rule: Rule, toolName: string, toolInput: unknown, ctx: RuleContext): boolean {
  if (!rule || typeof rule !== 'object' || typeof toolName !== 'string') return false;
  try {
    return matchUnsafe(rule, toolName, toolInput, ctx ?? { cwd: '/' });
  } catch {
    // An unexpected failure runs the hook (or denies) rather than silently skipping it, and never grants.
    return ctx?.grant !== true;
  }
}

function matchUnsafe(rule: Rule, toolName: string, toolInput: unknown, ctx: RuleContext): boolean {
  const input: Record<string, unknown> = toolInput !== null && typeof toolInput === 'object' ? (toolInput as Record<string, unknown>) : {};
  switch (rule.kind) {
    case 'tool':
      return toolCovers(rule.tool, toolName);
    case 'mcp-server':
      return toolName.startsWith(`mcp__${rule.server}__`);
    case 'bash':
      if (toolName !== 'Bash') return false;
      return ctx.grant === true ? coversBash(rule.command, input.command) : matchBash(rule.guardCommand, input.command);
    case 'path':
      // Claude Code 2.1.328 granted no Write under `Write(x)` in allow, only `Edit(x)` (claude-diff allow-write-rule).
      if (ctx.grant === true && rule.tool !== 'Edit' && EDIT_TOOLS.has(rule.tool) && !APPLY_PATCH_TOOLS.has(rule.tool)) return false;
      return toolCovers(rule.tool, toolName) && matchPaths(ctx.grant === true ? rule.grantPath : rule.path, toolName, input, ctx);
    case 'domain': {
      const host = toolName === rule.tool ? fetchedHost(input.url) : undefined;
      return host !== undefined && rule.host.test(host);
    }
    case 'field': {
      if (rule.field === undefined || toolName !== rule.tool) return false;
      const value = input[rule.field];
      return typeof value === 'string' && (rule.value.test(value) || rule.value.test(value.trim()));
    }
    default:
      return false;
  }
}

/** Whether a rule written for `ruleTool` covers a call of `toolName`. */
function toolCovers(ruleTool: string, toolName: string): boolean {
  if (ruleTool === toolName) return true;
  if (ruleTool === 'Edit') return EDIT_TOOLS.has(toolName);
  if (ruleTool === 'Read') return READ_TOOLS.has(toolName);
  return APPLY_PATCH_TOOLS.has(ruleTool) && APPLY_PATCH_TOOLS.has(toolName);
}

function matchBash(pattern: CommandPattern, command: unknown): boolean {
  if (typeof command !== 'string') return true; // no command to parse: fail open
  const shell = analyzeShellCommand(command);
  if (!shell.ok) return true; // unparsable: fail open (reference)
  // `$()`, backticks or `$VAR` could hide what a specific pattern looks for (reference table).
  if (pattern.specific && shell.dynamic) return true;
  for (const sub of shell.subcommands) {
    if (sub.dynamicName) return true; // the command itself is computed: cannot rule it out
    if (sub.opaque) return true; // runs a shell text that could not be read
    for (const candidate of sub.candidates) if (pattern.test(candidate)) return true;
    for (const candidate of sub.guardCandidates) if (pattern.test(candidate)) return true;
  }
  if (pattern.spansOperators) {
    for (const candidate of shell.whole) if (pattern.test(candidate)) return true;
  }
  return false;
}

/**
 * Whether an allow rule covers the whole command: each subcommand as written (or past a wrapper
 * that runs it unchanged), nothing computed, read from a file or written to one. A pattern with
 * a shell operator in it covers the whole command only as an exact text: `make && *` would
 * cover `make && rm -rf ~`.
 */
function coversBash(pattern: CommandPattern, command: unknown): boolean {
  if (typeof command !== 'string') return false;
  const shell = analyzeShellCommand(command);
  if (!shell.ok) return false;
  if (pattern.spansOperators && pattern.form === 'exact' && !shell.dynamic && shell.whole.some((c) => pattern.test(c))) return true;
  if (!shell.grantable || shell.subcommands.length === 0) return false;
  return shell.subcommands.every((sub) => sub.candidates.some((c) => pattern.test(c)));
}

function matchPaths(pattern: PathPattern, toolName: string, input: Record<string, unknown>, ctx: RuleContext): boolean {
  const paths = extractToolPaths(toolName, input);
  if (DIRECTORY_SEARCH_TOOLS.has(toolName)) {
    // No `path`: the search runs in the working directory.
    const dirs = paths.length > 0 ? paths : [ctx.cwd];
    // Granting, the searched directory itself must be covered (testDir also matches a search
    // that merely holds a covered file: `Read(src/a.ts)` would grant a search of the project).
    return ctx.grant === true ? dirs.every((p) => pattern.testFile(p, ctx)) : dirs.some((p) => pattern.testDir(p, ctx));
  }
  // Guarding, any one path is enough: a patch whose third file is sensitive matches. Granting,
  // every path must be covered, and a call whose paths cannot be told is not.
  if (ctx.grant === true) return paths.length > 0 && paths.every((p) => pattern.testFile(p, ctx));
  return paths.some((p) => pattern.testFile(p, ctx));
}

// The plan stage reaches these through the slot, so that the lean CLI paths load this module
// (and unbash and picomatch with it) only for a hook that has an `if` (rule-slot.ts).
provideIfRules({ parseRule, matchRule });

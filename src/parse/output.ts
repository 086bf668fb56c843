/**
 * Parse stage: one ExecutionResult + the event's catalog entry → one ParsedHook.
 * Pure: no I/O except spilling over-long strings (capOutputString).
 *
 * Rules (the Claude reference, and this engine's own where it adds to it):
 * - stdout is JSON only when the whole trimmed stdout is one JSON object; anything else is plain text.
 * - exit 2 = blocking error with stderr as reason on events that can block (JSON cannot undo it, but
 *   its other fields are still read); on other events exit 2 does what the catalog's `exit2` says.
 * - any other non-zero exit: a valid JSON object alone decides; otherwise a non-blocking error
 *   (the hook's failure policy then applies).
 */
import { stripVTControlCharacters } from 'node:util';
import { eventCheck } from '../events/compiled.js';
import { eventFacts, mergeRuleOf, OUTPUT_FIELD_MERGE, type EventName } from '../events/facts.js';
import { outputFields } from '../events/honoured.js';
import type { EventFacts } from '../events/spec.js';
import { eventZodSchemas, requireEventZodSchemas } from '../util/zod-slot.js';
import type { ExecutionResult } from '../types.js';
import { capOutputString } from './text-cap.js';
import { lintOutput } from '../lint/output.js';
import { formatZodIssues } from './zod-issues.js';
import { isObject } from '../util/is-object.js';

export { formatZodIssues } from './zod-issues.js';

export type Verdict = 'allow' | 'deny' | 'ask' | 'defer' | 'block';

type ParsedOutcome =
  | 'success' // ran; may or may not carry a verdict
  | 'blocking' // exit 2 on an event that can block
  | 'non_blocking_error' // failed, invalid output, or odd exit: failure policy applies
  | 'timeout' // timeout policy applies
  | 'error'; // could not start / backend failure: failure policy applies

export interface ParsedHook {
  outcome: ParsedOutcome;
  verdict?: Verdict;
  reason?: string;
  continue?: boolean;
  stopReason?: string;
  systemMessage?: string;
  /** Stderr an exit 2 surfaces to the user on events that cannot block. */
  userMessage?: string;
  additionalContext?: string;
  updatedInput?: Record<string, unknown>;
  updatedOutput?: unknown;
  /** Other honoured hookSpecificOutput fields (sessionTitle, displayContent, action, retry, …). */
  specific: Record<string, unknown>;
  /** Plain stdout that only goes to the log. */
  log?: string;
  /** Why the hook is an error (validation message, exit status, spawn error). */
  message?: string;
  /** Output fields the event ignores (src/lint/output.ts), as `path: message`. */
  lint?: string[];
}

/** Fields of hookSpecificOutput read here into the Decision's own fields (merge rule 'own'); the rest land in `specific`. */
const HANDLED_SPECIFIC = new Set(Object.keys(OUTPUT_FIELD_MERGE).filter((k) => mergeRuleOf(k) === 'own'));

/**
 * Deepest JSON a hook may print (the root object is level 1). Deeper output is invalid: no real
 * hook needs it, and JSON.stringify (CLI output, hosts) recurses and would overflow the stack.
 */
const MAX_OUTPUT_DEPTH = 512;
/** Bounds the depth walk over a function hook's value, whose shared references can fan out. */
const MAX_OUTPUT_NODES = 1_000_000;

export interface ParseOptions {
  /** Directory for spilled over-long output strings. */
  spillDir?: string;
  /** The firing's tool: `updatedMCPToolOutput` replaces only an MCP tool's (`mcp__…`) output. */
  toolName?: string;
}

/** The whole trimmed stdout as one JSON object, or undefined. */
export function parseJsonObject(stdout: string): Record<string, unknown> | undefined {
  const trimmed = stdout.trim();
  if (trimmed.length < 2 || trimmed[0] !== '{' || trimmed[trimmed.length - 1] !== '}') return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Why a JSON value is unfit as hook output (too deep, or too large to walk), or undefined. Iterative. */
function outputShapeProblem(value: unknown): string | undefined {
  const stack: Array<[unknown, number]> = [[value, 1]];
  let nodes = 0;
  try {
    while (stack.length > 0) {
      const [v, depth] = stack.pop()!;
      if (depth > MAX_OUTPUT_DEPTH) return `nested deeper than ${MAX_OUTPUT_DEPTH} levels`;
      if (++nodes > MAX_OUTPUT_NODES) return `more than ${MAX_OUTPUT_NODES} objects and arrays`;
      for (const child of Array.isArray(v) ? v : Object.values(v as object)) {
        if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
      }
    }
  } catch (err) {
    return `unreadable: ${(err as Error)?.message ?? String(err)}`; // a function hook's throwing getter
  }
  return undefined;
}

function cap(text: string | undefined, opts: ParseOptions): string | undefined {
  if (text === undefined) return undefined;
  return capOutputString(text, opts.spillDir).text;
}

/**
 * The first informative stderr line. Runtimes often lead with a location line
 * (`node:internal/modules/…:322`, a source line, a `^` marker) before the actual error,
 * so those are skipped when a later line says more.
 */
function firstLine(text: string): string {
  const lines = text
    .trim()
    .split('\n', 20)
    .map((l) => l.trim())
    .filter(Boolean);
  const isLocation = (l: string) => /^(node:internal\/|file:\/\/|\/)\S+:\d+$/.test(l);
  let line = lines[0] ?? '';
  if (isLocation(line)) {
    const errorLine = lines.find((l) => /^[A-Za-z]*(Error|Exception)\b[^:]*:/.test(l));
    line = errorLine ?? lines.find((l) => !isLocation(l) && !/^\^+$/.test(l) && !/^at\s/.test(l)) ?? line;
  }
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}

/**
 * Whether parseExecution would need zod for this result: its JSON output is an object of the
 * right shape that the compiled validator does not accept (or none is loaded). The engine loads
 * the schemas before parsing such a result (src/engine/execute.ts); an accepted output, plain
 * text or no output never loads zod.
 */
export function outputNeedsZod(event: EventName, result: ExecutionResult): boolean {
  if (eventZodSchemas() || result.status !== 'completed') return false;
  const json = result.value !== undefined ? (isObject(result.value) ? result.value : undefined) : parseJsonObject(result.stdout);
  if (!json || result.stdoutTruncated || outputShapeProblem(json)) return false;
  return !eventCheck('output', event)?.(json);
}

export function parseExecution(event: EventName, result: ExecutionResult, opts: ParseOptions = {}): ParsedHook {
  if (result.status === 'timeout') {
    return { outcome: 'timeout', specific: {}, message: result.error ?? 'hook timed out' };
  }
  if (result.status === 'error' || result.status === 'aborted') {
    return { outcome: 'error', specific: {}, message: result.error ?? `hook ${result.status}` };
  }

  // Function hooks hand back a value instead of stdout.
  let json: Record<string, unknown> | undefined;
  let stdoutText = result.stdout;
  if (result.value !== undefined) {
    if (isObject(result.value)) json = result.value;
    else if (typeof result.value === 'string') stdoutText = result.value;
  } else {
    // Whatever its exit code: Claude Code 2.1.328 neither blocks on an exit 2 after the declaration
    // nor shows its stderr, and still hands over the context printed before it.
    const rest = afterAsyncDeclaration(stdoutText);
    if (rest !== undefined) return asyncAnswer(event, rest, opts);
    json = parseJsonObject(stdoutText);
  }
  const parsed = parseCompleted(event, result, json, stdoutText, opts);
  if (json) {
    // Fields the event ignores: a warning each, never a change of behaviour.
    const lint = lintOutput(event, json);
    if (lint.length > 0) parsed.lint = [...(parsed.lint ?? []), ...lint];
  }
  return parsed;
}

/** What follows a first stdout line `{"async":true,…}` (a hook declaring itself async, Claude Code 2.1), or undefined. */
function afterAsyncDeclaration(stdout: string): string | undefined {
  const nl = stdout.indexOf('\n');
  const first = parseJsonObject(nl < 0 ? stdout : stdout.slice(0, nl));
  return first?.async === true ? (nl < 0 ? '' : stdout.slice(nl + 1)) : undefined;
}

/**
 * The answer of a hook that declared itself async. Claude Code 2.1.328 does not wait for it, and
 * when it ends hands the model, on its next request, the `additionalContext` and the
 * `systemMessage` of a JSON object printed after the declaration; plain text and decisions have no
 * effect (the event went on without them). test/agents/claude-diff case `async-first-line`.
 */
function asyncAnswer(event: EventName, rest: string, opts: ParseOptions): ParsedHook {
  const json = parseJsonObject(rest);
  const hso = json && isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  const texts = [hso.additionalContext, json?.systemMessage].filter((t): t is string => typeof t === 'string' && t !== '');
  const parsed: ParsedHook = { outcome: 'success', specific: {} };
  if (texts.length && outputFields(event).specific.has('additionalContext')) parsed.additionalContext = cap(texts.join('\n'), opts);
  else if (rest.trim()) parsed.log = rest.trim();
  return parsed;
}

function parseCompleted(
  event: EventName,
  result: ExecutionResult,
  json: Record<string, unknown> | undefined,
  stdoutText: string,
  opts: ParseOptions,
): ParsedHook {
  const spec = eventFacts(event);
  const parsed: ParsedHook = { outcome: 'success', specific: {} };

  let validationError: string | undefined;
  const shapeProblem = json ? outputShapeProblem(json) : undefined;
  if (result.stdoutTruncated && stdoutText.trimStart().startsWith('{')) {
    // The cut-off JSON (a decision, maybe) cannot be read: a failure, never a silent "no decision".
    validationError = `JSON output exceeded the output cap and was truncated at ${Buffer.byteLength(stdoutText, 'utf8')} bytes`;
  } else if (shapeProblem) validationError = `JSON output ${shapeProblem}`;
  else if (json) {
    // Compiled first when loaded (the engine loads it with the input's, src/engine/firing.ts); zod decides the rest.
    const check = eventCheck('output', event)?.(json) ? undefined : requireEventZodSchemas().outputSchema(event).safeParse(json);
    if (check && !check.success) validationError = formatZodIssues(check.error, json);
    else {
      const hso = json.hookSpecificOutput;
      if (isObject(hso) && hso.hookEventName !== undefined && hso.hookEventName !== event) {
        validationError = `hookSpecificOutput.hookEventName: expected "${event}", got ${JSON.stringify(hso.hookEventName)}`;
      }
    }
  }
  const validJson = json && !validationError ? json : undefined;
  const code = result.exitCode;
  const stderr = result.stderr.trim();

  // WorktreeCreate: any non-zero exit fails creation whatever the JSON says.
  if (spec.decision === 'worktree' && code !== 0) {
    return {
      outcome: 'blocking',
      verdict: 'block',
      specific: {},
      reason: cap(stderr || `worktree hook exited with ${describeExit(result)}`, opts),
    };
  }

  if (code === 2) {
    if (validJson) applyJson(parsed, validJson, event, spec, opts, { ignoreSpecific: spec.decision === 'elicitation' });
    if (spec.exit2 === 'block') {
      parsed.outcome = 'blocking';
      const jsonReason = parsed.verdict === 'deny' || parsed.verdict === 'block' ? parsed.reason : undefined;
      parsed.verdict = spec.decision === 'permission' ? 'deny' : 'block';
      parsed.reason = jsonReason ?? cap(stderr || 'blocked by hook (exit code 2)', opts);
      if (validationError) parsed.message = `invalid JSON output ignored: ${validationError}`;
    } else if (spec.exit2 === 'feedback') {
      parsed.verdict = 'block';
      parsed.reason = cap(stderr || 'hook exited with code 2', opts);
    } else if (spec.exit2 === 'user') {
      if (stderr) parsed.userMessage = cap(stderr, opts);
    }
    // 'ignore': exit code and stderr ignored; valid JSON (e.g. a PermissionRequest decision) still counts.
    return parsed;
  }

  if (validJson) {
    applyJson(parsed, validJson, event, spec, opts, { ignoreSpecific: false });
    return parsed;
  }

  if (validationError) {
    return { outcome: 'non_blocking_error', specific: {}, message: `invalid hook output: ${validationError}` };
  }

  if (code !== 0) {
    const detail = stderr ? `: ${firstLine(stderr)}` : '';
    return {
      outcome: 'non_blocking_error',
      specific: {},
      message: `Failed with non-blocking status code ${describeExit(result)}${detail}`,
    };
  }

  // Exit 0 with plain text.
  const text = stdoutText.trim();
  if (text) {
    if (spec.plainStdout === 'context') parsed.additionalContext = cap(text, opts);
    else if (spec.plainStdout === 'path') parsed.specific.worktreePath = worktreePathFrom(text);
    else parsed.log = cap(text, opts);
  }
  return parsed;
}

/** WorktreeCreate: the path is the last non-empty stdout line, terminal escapes removed (earlier lines are the hook's log). */
function worktreePathFrom(text: string): string {
  const lines = stripVTControlCharacters(text)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines[lines.length - 1] ?? '';
}

function describeExit(result: ExecutionResult): string {
  if (result.exitCode !== null) return String(result.exitCode);
  return result.signal ? `signal ${result.signal}` : 'unknown';
}

function applyJson(
  parsed: ParsedHook,
  json: Record<string, unknown>,
  event: EventName,
  spec: EventFacts,
  opts: ParseOptions,
  { ignoreSpecific }: { ignoreSpecific: boolean },
): void {
  if (spec.universal && json.continue === false) {
    parsed.continue = false;
    if (typeof json.stopReason === 'string') parsed.stopReason = cap(json.stopReason, opts);
  }
  // Some events drop continue but still show systemMessage (CwdChanged, FileChanged, …).
  if ((spec.universal || spec.keepsSystemMessage) && typeof json.systemMessage === 'string') {
    parsed.systemMessage = cap(json.systemMessage, opts);
  }
  const reason = typeof json.reason === 'string' ? cap(json.reason, opts) : undefined;

  if (spec.topLevelBlock && json.decision === 'block') {
    parsed.verdict = 'block';
    parsed.reason = reason;
  }
  if (spec.decision === 'permission') {
    // Deprecated top-level form: approve → allow, block → deny.
    if (json.decision === 'approve') parsed.verdict = 'allow';
    if (json.decision === 'block') parsed.verdict = 'deny';
    if (parsed.verdict) parsed.reason = reason;
  }

  const hso = json.hookSpecificOutput;
  if (!isObject(hso) || ignoreSpecific) return;
  const honoured = outputFields(event).specific;

  if (typeof hso.additionalContext === 'string' && honoured.has('additionalContext')) {
    parsed.additionalContext = cap(hso.additionalContext, opts);
  }

  switch (spec.decision) {
    case 'permission': {
      const d = hso.permissionDecision;
      if (d === 'allow' || d === 'deny' || d === 'ask' || d === 'defer') {
        parsed.verdict = d;
        parsed.reason = typeof hso.permissionDecisionReason === 'string' ? cap(hso.permissionDecisionReason, opts) : undefined;
      }
      if (isObject(hso.updatedInput) && parsed.verdict !== 'defer') parsed.updatedInput = hso.updatedInput;
      if (parsed.verdict === 'defer') delete parsed.additionalContext;
      break;
    }
    case 'permission-request': {
      const d = hso.decision;
      if (isObject(d) && (d.behavior === 'allow' || d.behavior === 'deny')) {
        parsed.verdict = d.behavior;
        if (d.behavior === 'allow') {
          if (isObject(d.updatedInput)) parsed.updatedInput = d.updatedInput;
          if (Array.isArray(d.updatedPermissions)) parsed.specific.updatedPermissions = d.updatedPermissions;
        } else {
          if (typeof d.message === 'string') parsed.reason = cap(d.message, opts);
          if (d.interrupt === true) parsed.specific.interrupt = true;
        }
      }
      break;
    }
    default:
      break;
  }

  if ('updatedToolOutput' in hso && honoured.has('updatedToolOutput')) parsed.updatedOutput = hso.updatedToolOutput;
  if ('updatedMCPToolOutput' in hso && honoured.has('updatedMCPToolOutput')) {
    // The reference: "for MCP tools only"; on any other tool it is ignored (updatedToolOutput works for all).
    if (opts.toolName === undefined || opts.toolName.startsWith('mcp__')) parsed.updatedOutput = hso.updatedMCPToolOutput;
    else {
      parsed.lint ??= [];
      parsed.lint.push(`updatedMCPToolOutput (${opts.toolName} is not an MCP tool; use updatedToolOutput)`);
    }
  }

  for (const key of Object.keys(hso)) {
    // Own keys only: `in` would let "__proto__" (replacing specific's prototype) or "constructor" through.
    if (HANDLED_SPECIFIC.has(key) || key === 'hookEventName' || !honoured.has(key)) continue;
    parsed.specific[key] = hso[key];
  }
  // The event's blockField (PreCompact's blockCompaction): an explicit true blocks.
  if (spec.blockField !== undefined && hso[spec.blockField] === true) {
    parsed.verdict = 'block';
    parsed.reason ??= reason;
  }
}

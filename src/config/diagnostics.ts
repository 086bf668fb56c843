/**
 * Turning parse and validation failures into path-qualified Diagnostics:
 * dotted paths, zod issues → readable messages with "did you mean" hints,
 * and line:column of a JSON syntax error (V8's message no longer carries a position).
 */
import type { z } from 'zod';
import type { Diagnostic } from '../types.js';
import { EVENT_NAMES } from '../events/facts.js';
import { AGENT_HOOKS_OPTION_KEYS, BUILTIN_HOOKS_KEYS, GROUP_KEYS, HANDLER_KEYS, PLUGIN_HOOKS_KEYS, SETTINGS_KEYS } from './keys.js';
import { closest } from '../util/did-you-mean.js';

/** Path of the whole document; a Diagnostic path is never empty. */
export const ROOT_PATH = '(root)';

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** ['hooks','PreToolUse',0,'hooks',1] → hooks.PreToolUse[0].hooks[1] */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else {
      const key = String(seg);
      out += IDENT.test(key) ? (out ? `.${key}` : key) : `[${JSON.stringify(key)}]`;
    }
  }
  return out || ROOT_PATH;
}

function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** The value at a zod issue path in the raw document (own properties only), or undefined. */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (!Object.hasOwn(cur, seg)) return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}

export type DocumentKind = 'settings' | 'plugin' | 'hooks';

/** Which keys were allowed in the object at `path` (for hints on unknown keys). */
function allowedKeys(doc: DocumentKind, path: readonly PropertyKey[], raw: unknown): { keys: readonly string[]; what: string } {
  // In a 'hooks' document (skill frontmatter) the hooks object is the root.
  const p = doc === 'hooks' ? ['hooks', ...path] : path;
  if (p.length === 0) return { keys: doc === 'plugin' ? PLUGIN_HOOKS_KEYS : SETTINGS_KEYS, what: 'key' };
  if (p.length === 1 && p[0] === 'hooks') return { keys: EVENT_NAMES, what: 'event' };
  if (p.length === 1 && p[0] === 'agentHooks') return { keys: AGENT_HOOKS_OPTION_KEYS, what: 'option' };
  if (p.length === 2 && p[0] === 'agentHooks' && p[1] === 'builtinHooks') return { keys: BUILTIN_HOOKS_KEYS, what: 'built-in hook' };
  if (p.length === 3 && p[0] === 'hooks') return { keys: GROUP_KEYS, what: 'key' };
  if (p.length === 5 && p[0] === 'hooks') {
    const type = (valueAt(raw, path) as { type?: unknown } | undefined)?.type;
    if (typeof type === 'string' && Object.hasOwn(HANDLER_KEYS, type)) {
      return { keys: HANDLER_KEYS[type as keyof typeof HANDLER_KEYS], what: `key for a '${type}' hook` };
    }
    return { keys: [...new Set(Object.values(HANDLER_KEYS).flat())], what: 'key' };
  }
  return { keys: [], what: 'key' };
}

function quote(s: string): string {
  return JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);
}

/** One Diagnostic per zod issue (one per key for unknown keys). */
export function issuesToDiagnostics(
  issues: readonly z.core.$ZodIssue[],
  raw: unknown,
  file: string | undefined,
  doc: DocumentKind,
  pathPrefix: readonly PropertyKey[] = [],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const push = (path: readonly PropertyKey[], message: string) =>
    out.push({ level: 'error', ...(file !== undefined ? { file } : {}), path: formatPath([...pathPrefix, ...path]), message });

  for (const issue of issues) {
    const path = issue.path;
    switch (issue.code) {
      case 'unrecognized_keys': {
        const { keys, what } = allowedKeys(doc, path, raw);
        for (const key of issue.keys) {
          const hint = closest(key, keys);
          const noun = what === 'event' ? 'unknown event' : `unknown ${what}`;
          push([...path, key], `${noun} ${quote(key)}${hint ? ` (did you mean ${quote(hint)}?)` : ''}`);
        }
        break;
      }
      case 'invalid_type': {
        const actual = valueAt(raw, path);
        push(
          path,
          actual === undefined
            ? `missing required field (expected ${issue.expected})`
            : `expected ${issue.expected}, got ${describeValue(actual)}`,
        );
        break;
      }
      case 'invalid_union': {
        const disc = (issue as { discriminator?: string }).discriminator;
        const options = (issue as { options?: unknown[] }).options;
        if (disc) {
          const actual = valueAt(raw, path);
          const list = (options ?? []).map((o) => String(o)).join(', ');
          push(
            path,
            actual === undefined
              ? `missing required field '${disc}' (one of ${list})`
              : `unknown hook ${disc} ${typeof actual === 'string' ? quote(actual) : describeValue(actual)} (expected one of ${list})`,
          );
        } else push(path, issue.message);
        break;
      }
      case 'invalid_value':
        push(path, `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${formatActual(valueAt(raw, path))}`);
        break;
      case 'too_small':
        if (issue.origin === 'string' && Number(issue.minimum) === 1) push(path, 'must not be empty');
        else push(path, `must be ${issue.inclusive ? '>=' : '>'} ${String(issue.minimum)}`);
        break;
      case 'invalid_format':
        push(path, `invalid ${issue.format}${issue.format === 'url' ? ' (an http:// or https:// URL)' : ''}`);
        break;
      default:
        push(path, issue.message);
    }
  }
  return out;
}

function formatActual(v: unknown): string {
  if (typeof v === 'string') return quote(v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  return describeValue(v);
}

/** 1-based line and column of a UTF-16 offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

type Want = 'value' | 'valueOrEnd' | 'keyOrEnd' | 'key' | 'colon' | 'commaOrEnd' | 'eof';
type SyntaxProblem = { offset: number; message: string };

/** The scanner's position: the open containers, what may come next, the last comma seen. */
interface Scan {
  text: string;
  n: number;
  i: number;
  stack: Array<'{' | '['>;
  want: Want;
  lastComma: number;
}

const JSON_NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

const problem = (offset: number, message: string): SyntaxProblem => ({ offset, message });
const show = (c: string) => (c === '\n' ? 'newline' : `'${c}'`);
/** After a complete value: a separator inside a container, else the end of the text. */
const after = (s: Scan): Want => (s.stack.length ? 'commaOrEnd' : 'eof');
/** The closing bracket at s.i ends the innermost container. */
function closeContainer(s: Scan): void {
  s.stack.pop();
  s.i++;
  s.want = after(s);
}

/**
 * Locate the first JSON syntax error. Iterative (an explicit stack), so pathological
 * nesting cannot overflow the call stack. Returns undefined when the text is valid JSON.
 */
export function findJsonSyntaxError(text: string): SyntaxProblem | undefined {
  const s: Scan = { text, n: text.length, i: 0, stack: [], want: 'value', lastComma: -1 };
  for (;;) {
    while (s.i < s.n && ' \t\n\r'.includes(text[s.i]!)) s.i++;
    if (s.i >= s.n) return s.want === 'eof' ? undefined : problem(s.n, 'unexpected end of input');
    const found = step(s, text[s.i]!);
    if (found) return found;
  }
}

/** One token at s.i (c, not whitespace) for what the scanner wants; a problem ends the scan. */
function step(s: Scan, c: string): SyntaxProblem | undefined {
  switch (s.want) {
    case 'eof':
      return problem(s.i, `unexpected ${show(c)} after the end of the JSON value`);
    case 'colon':
      if (c !== ':') return problem(s.i, `expected ':' after property name, got ${show(c)}`);
      s.i++;
      s.want = 'value';
      return undefined;
    case 'commaOrEnd':
      return commaOrEnd(s, c);
    case 'keyOrEnd':
    case 'key':
      return keyOrEnd(s, c);
    case 'valueOrEnd':
    case 'value':
      return valueOrEnd(s, c);
  }
}

function commaOrEnd(s: Scan, c: string): SyntaxProblem | undefined {
  const close = s.stack[s.stack.length - 1] === '{' ? '}' : ']';
  if (c === ',') {
    s.lastComma = s.i;
    s.i++;
    s.want = close === '}' ? 'key' : 'value';
  } else if (c === close) {
    closeContainer(s);
  } else return problem(s.i, `expected ',' or '${close}', got ${show(c)}`);
  return undefined;
}

function keyOrEnd(s: Scan, c: string): SyntaxProblem | undefined {
  if (s.want === 'keyOrEnd' && c === '}') {
    closeContainer(s);
    return undefined;
  }
  if (c === '}' && s.lastComma >= 0) return problem(s.lastComma, 'trailing comma is not allowed');
  if (c !== '"') return problem(s.i, `expected a property name in double quotes, got ${show(c)}`);
  const e = scanString(s);
  if (e) return e;
  s.want = 'colon';
  return undefined;
}

function valueOrEnd(s: Scan, c: string): SyntaxProblem | undefined {
  if (s.want === 'valueOrEnd' && c === ']') {
    closeContainer(s);
    return undefined;
  }
  if (c === ']' && s.lastComma >= 0 && s.stack[s.stack.length - 1] === '[') return problem(s.lastComma, 'trailing comma is not allowed');
  if (c === '{' || c === '[') {
    s.stack.push(c);
    s.i++;
    s.want = c === '{' ? 'keyOrEnd' : 'valueOrEnd';
    return undefined;
  }
  if (c === '"') {
    const e = scanString(s);
    if (e) return e;
    s.want = after(s);
    return undefined;
  }
  const lit = ['true', 'false', 'null'].find((l) => s.text.startsWith(l, s.i));
  if (lit) {
    s.i += lit.length;
    s.want = after(s);
    return undefined;
  }
  JSON_NUMBER.lastIndex = s.i;
  if (JSON_NUMBER.test(s.text)) {
    s.i = JSON_NUMBER.lastIndex;
    s.want = after(s);
    return undefined;
  }
  return problem(s.i, `unexpected ${show(c)} where a value was expected`);
}

/** A string from its opening quote at s.i; leaves s.i after the closing quote. */
function scanString(s: Scan): SyntaxProblem | undefined {
  const { text, n } = s;
  const start = s.i;
  s.i++; // opening quote
  while (s.i < n) {
    const c = text.charCodeAt(s.i);
    if (c === 34) {
      s.i++;
      return undefined;
    }
    if (c < 0x20) return problem(s.i, 'control character in string (escape it)');
    if (c === 92) {
      const e = text[s.i + 1];
      if (e === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(s.i + 2, s.i + 6))) return problem(s.i, 'invalid \\u escape');
        s.i += 6;
      } else if (e !== undefined && '"\\/bfnrt'.includes(e)) s.i += 2;
      else return problem(s.i, `invalid escape '\\${e ?? ''}'`);
    } else s.i++;
  }
  return problem(start, 'unterminated string');
}

/** Parse JSON; on failure return a message with line:column. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (e) {
    const found = findJsonSyntaxError(body);
    if (!found) return { ok: false, message: `invalid JSON: ${(e as Error).message}` };
    const { line, column } = lineColumn(body, found.offset);
    return { ok: false, message: `invalid JSON at ${line}:${column}: ${found.message}` };
  }
}

/**
 * Deepest nesting a config document may have (the root is level 1). Deeper documents are
 * rejected before anything recurses into them: dedup keys, digests and serializers use
 * JSON.stringify, which overflows the stack, and a thrown error would lose every file's hooks.
 */
const MAX_CONFIG_DEPTH = 512;
/** Bounds the walk over a parsed YAML document, whose aliases can fan out. */
const MAX_CONFIG_NODES = 1_000_000;

/** Where `value` nests deeper than MAX_CONFIG_DEPTH (a cycle counts as too deep), or undefined. Iterative. */
export function nestingProblem(value: unknown, pathPrefix: readonly PropertyKey[] = []): { path: string; message: string } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const nodes: Array<{ value: unknown; depth: number; parent: number; key: PropertyKey }> = [{ value, depth: 1, parent: -1, key: '' }];
  const stack = [0];
  const pathOf = (i: number): string => {
    const segs: PropertyKey[] = [];
    for (let at = i; at > 0; at = nodes[at]!.parent) segs.push(nodes[at]!.key);
    segs.reverse();
    const shown = formatPath([...pathPrefix, ...segs.slice(0, 8)]);
    return segs.length > 8 ? `${shown}…` : shown;
  };
  while (stack.length > 0) {
    const i = stack.pop()!;
    const node = nodes[i]!;
    if (node.depth > MAX_CONFIG_DEPTH) return { path: pathOf(i), message: `nested deeper than ${MAX_CONFIG_DEPTH} levels` };
    const v = node.value as Record<string, unknown>;
    const keys: PropertyKey[] = Array.isArray(v) ? v.map((_, k) => k) : Object.keys(v);
    for (const key of keys) {
      const child = v[key as string];
      if (typeof child !== 'object' || child === null) continue;
      if (nodes.length >= MAX_CONFIG_NODES)
        return { path: formatPath(pathPrefix), message: `more than ${MAX_CONFIG_NODES} objects and arrays` };
      nodes.push({ value: child, depth: node.depth + 1, parent: i, key });
      stack.push(nodes.length - 1);
    }
  }
  return undefined;
}

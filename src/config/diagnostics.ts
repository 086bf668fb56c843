/**
 * Turning parse and validation failures into path-qualified Diagnostics:
 * dotted paths, zod issues → readable messages with "did you mean" hints,
 * and line:column of a JSON syntax error (V8's message no longer carries a position).
 */
import type { z } from 'zod';
import type { Diagnostic } from '../types.js';
import { EVENT_NAMES } from '../events/catalog.js';
import { HANDLER_KEYS, SETTINGS_KEYS, agentHooksOptionsSchema, matcherGroupSchema } from './schema.js';
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
    if (!Object.prototype.hasOwnProperty.call(cur, seg)) return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}

export type DocumentKind = 'settings' | 'plugin' | 'hooks';

/** Which keys were allowed in the object at `path` (for hints on unknown keys). */
function allowedKeys(doc: DocumentKind, path: readonly PropertyKey[], raw: unknown): { keys: readonly string[]; what: string } {
  // In a 'hooks' document (skill frontmatter) the hooks object is the root.
  const p = doc === 'hooks' ? ['hooks', ...path] : path;
  if (p.length === 0) return { keys: doc === 'plugin' ? ['description', 'hooks'] : SETTINGS_KEYS, what: 'key' };
  if (p.length === 1 && p[0] === 'hooks') return { keys: EVENT_NAMES, what: 'event' };
  if (p.length === 1 && p[0] === 'agentHooks') return { keys: Object.keys(agentHooksOptionsSchema.shape), what: 'option' };
  if (p.length === 3 && p[0] === 'hooks') return { keys: Object.keys(matcherGroupSchema.shape), what: 'key' };
  if (p.length === 5 && p[0] === 'hooks') {
    const type = (valueAt(raw, path) as { type?: unknown } | undefined)?.type;
    if (typeof type === 'string' && Object.prototype.hasOwnProperty.call(HANDLER_KEYS, type)) {
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
export function lineColumn(text: string, offset: number): { line: number; column: number } {
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

/**
 * Locate the first JSON syntax error. Iterative (an explicit stack), so pathological
 * nesting cannot overflow the call stack. Returns undefined when the text is valid JSON.
 */
export function findJsonSyntaxError(text: string): { offset: number; message: string } | undefined {
  type Want = 'value' | 'valueOrEnd' | 'keyOrEnd' | 'key' | 'colon' | 'commaOrEnd' | 'eof';
  const stack: Array<'{' | '['> = [];
  let want: Want = 'value';
  let i = 0;
  const n = text.length;
  const after = (): Want => (stack.length ? 'commaOrEnd' : 'eof');
  const err = (offset: number, message: string) => ({ offset, message });
  const show = (c: string) => (c === '\n' ? 'newline' : `'${c}'`);

  const scanString = (): { offset: number; message: string } | undefined => {
    const start = i;
    i++; // opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return undefined;
      }
      if (c < 0x20) return err(i, 'control character in string (escape it)');
      if (c === 92) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return err(i, 'invalid \\u escape');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return err(i, `invalid escape '\\${e ?? ''}'`);
      } else i++;
    }
    return err(start, 'unterminated string');
  };
  const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

  let lastComma = -1;
  for (;;) {
    while (i < n && ' \t\n\r'.includes(text[i]!)) i++;
    if (i >= n) return want === 'eof' ? undefined : err(n, 'unexpected end of input');
    const c = text[i]!;
    switch (want) {
      case 'eof':
        return err(i, `unexpected ${show(c)} after the end of the JSON value`);
      case 'colon':
        if (c !== ':') return err(i, `expected ':' after property name, got ${show(c)}`);
        i++;
        want = 'value';
        continue;
      case 'commaOrEnd': {
        const close = stack[stack.length - 1] === '{' ? '}' : ']';
        if (c === ',') {
          lastComma = i;
          i++;
          want = close === '}' ? 'key' : 'value';
        } else if (c === close) {
          stack.pop();
          i++;
          want = after();
        } else return err(i, `expected ',' or '${close}', got ${show(c)}`);
        continue;
      }
      case 'keyOrEnd':
      case 'key':
        if (want === 'keyOrEnd' && c === '}') {
          stack.pop();
          i++;
          want = after();
          continue;
        }
        if (c === '}' && lastComma >= 0) return err(lastComma, 'trailing comma is not allowed');
        if (c !== '"') return err(i, `expected a property name in double quotes, got ${show(c)}`);
        {
          const e = scanString();
          if (e) return e;
        }
        want = 'colon';
        continue;
      case 'valueOrEnd':
      case 'value':
        if (want === 'valueOrEnd' && c === ']') {
          stack.pop();
          i++;
          want = after();
          continue;
        }
        if (c === ']' && lastComma >= 0 && stack[stack.length - 1] === '[') return err(lastComma, 'trailing comma is not allowed');
        if (c === '{' || c === '[') {
          stack.push(c);
          i++;
          want = c === '{' ? 'keyOrEnd' : 'valueOrEnd';
          continue;
        }
        if (c === '"') {
          const e = scanString();
          if (e) return e;
          want = after();
          continue;
        }
        {
          const lit = ['true', 'false', 'null'].find((l) => text.startsWith(l, i));
          if (lit) {
            i += lit.length;
            want = after();
            continue;
          }
          NUMBER.lastIndex = i;
          if (NUMBER.test(text)) {
            i = NUMBER.lastIndex;
            want = after();
            continue;
          }
        }
        return err(i, `unexpected ${show(c)} where a value was expected`);
    }
  }
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
export const MAX_CONFIG_DEPTH = 512;
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

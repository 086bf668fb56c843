/**
 * `${path}` placeholders in an mcp_tool hook's `input`, resolved against the hook's JSON input.
 *
 * Rules (Claude documents only "string values support `${path}` substitution"; the rest is ours):
 * - A path is dotted keys with optional indices: `tool_input.file_path`, `tool_input.edits[0].old_string`,
 *   `tool_input.edits.0.old_string`. Only own properties are read (no `__proto__`, no methods).
 * - A string that is exactly one placeholder takes the raw JSON value (a number stays a number,
 *   an object stays an object), so `"${tool_input}"` passes the whole tool input as an object.
 * - Inside a longer string, a string value is pasted as is and any other value as its JSON text.
 * - A path that resolves to nothing becomes the empty string, in both forms (like an unset
 *   variable in a shell, and like unlisted variables in HTTP hook headers).
 * - Text that is not a well-formed placeholder (`${a b}`, `$x`, a lone `${`) stays literal.
 * - Keys are never substituted; nested objects and arrays are walked. Substituted values are
 *   not substituted again, so a payload can never inject a placeholder.
 */

const PLACEHOLDER = /\$\{([^{}]*)\}/g;
const PATH = /^\s*([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+|\[\d+\])*)\s*$/;
const MAX_DEPTH = 64;

/** Split a path into keys: `a.b[0].c` → ['a', 'b', '0', 'c']; undefined when not a path. */
export function parsePath(text: string): string[] | undefined {
  const m = PATH.exec(text);
  if (!m) return undefined;
  return m[1]!.split(/\.|\[(\d+)\]/).filter((k) => k !== undefined && k !== '');
}

/** The value at `keys` inside `root`, or undefined. Own properties only. */
export function lookupPath(root: unknown, keys: readonly string[]): unknown {
  let cur: unknown = root;
  for (const key of keys) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(key)) return undefined;
      cur = cur[Number(key)];
    } else {
      if (!Object.hasOwn(cur, key)) return undefined;
      cur = (cur as Record<string, unknown>)[key];
    }
  }
  return cur;
}

function asText(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return ''; // a value that has no JSON text (cycle, BigInt) is treated as missing
  }
}

function substituteString(text: string, source: unknown): unknown {
  if (!text.includes('${')) return text;
  // Exactly one placeholder: the raw value.
  const whole = /^\$\{([^{}]*)\}$/.exec(text);
  if (whole) {
    const keys = parsePath(whole[1]!);
    if (keys) {
      const value = lookupPath(source, keys);
      return value === undefined ? '' : value;
    }
    return text;
  }
  return text.replace(PLACEHOLDER, (match, inner: string) => {
    const keys = parsePath(inner);
    return keys ? asText(lookupPath(source, keys)) : match;
  });
}

/** Substitute every string value of `input` (recursively) from `source`. Never throws; `input` is not modified. */
export function substituteInput(input: Record<string, unknown>, source: Record<string, unknown>): Record<string, unknown> {
  return walk(input, source, 0) as Record<string, unknown>;
}

function walk(value: unknown, source: unknown, depth: number): unknown {
  if (typeof value === 'string') return substituteString(value, source);
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => walk(v, source, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // defineProperty: a key named __proto__ stays an ordinary key.
    Object.defineProperty(out, k, { value: walk(v, source, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * The JSON a command hook reads on stdin, bounded in size.
 *
 * Hook inputs can carry unbounded tool output (a file's contents, a command's output). A
 * hook should still run with valid JSON it can parse, so instead of cutting the text we
 * shorten the longest strings — all of them down to one common length, the largest that
 * fits — and end each shortened string with a visible marker.
 *
 * A hook's own input (`encodeHookPayload`, what every backend sends) shortens only what no guard
 * judges: a tool's output (UNJUDGED_KEYS). What a guard judges (a command, a file's content, a
 * prompt) is never shortened — a guard shown `echo AAAA…` without the `rm -rf` at its end would
 * allow it: it is passed whole up to JUDGED_LIMIT_BYTES, and past that refused (the engine's
 * failure, which denies on events that can block).
 *
 * Payloads are expected to be JSON data (what the engine builds from events). Anything
 * else is made JSON-safe the way JSON.stringify would (toJSON, undefined dropped,
 * non-finite numbers → null), except what JSON.stringify would throw on: a cycle becomes a
 * marker string, a BigInt its decimal string, and nesting beyond MAX_DEPTH a marker.
 */
export const STDIN_LIMIT_BYTES = 100 * 1024;

export const CYCLE_MARKER = '[circular reference removed by agent-hooks]';
export const DEPTH_MARKER = '[nesting too deep, removed by agent-hooks]';
const SIZE_MARKER = '[object graph too large, removed by agent-hooks]';
const MAX_DEPTH = 512;
/** Bounds the clone of a pathological object graph (shared references fan out). */
const MAX_NODES = 1_000_000;

function truncationMarker(omittedBytes: number): string {
  return `…[truncated by agent-hooks: ${omittedBytes} bytes omitted]`;
}

export interface EncodedPayload {
  text: string;
  /** String fields were shortened; `text` may still exceed the limit when no string was long enough. */
  truncated: boolean;
  /** encodeHookPayload only: why the payload cannot be given to the hook whole (`text` is then empty). */
  refused?: string;
}

/**
 * Top-level payload fields that hold a tool's output, as each agent names them (canonical
 * `tool_response`; Kimi's and Cursor's `tool_output`, Copilot's `tool_result`, Cursor's `output`
 * and `result_json`): the action already happened, so shortening them hides nothing a guard
 * could still stop. Everything else is judged.
 */
const UNJUDGED_KEYS: ReadonlySet<string> = new Set(['tool_response', 'tool_output', 'tool_result', 'output', 'result_json']);

/** What a hook judges passes whole up to this size (or the stdin cap, if larger); past it the hook is not run. */
export const JUDGED_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * A hook's input: under `limitBytes`, only the UNJUDGED_KEYS strings shortened to fit; what is left
 * is passed whole up to JUDGED_LIMIT_BYTES (or `limitBytes`, if larger), else `refused`.
 */
export function encodeHookPayload(
  payload: unknown,
  limitBytes: number = STDIN_LIMIT_BYTES,
  unjudged: ReadonlySet<string> = UNJUDGED_KEYS,
): EncodedPayload {
  const r = encodePayload(payload, limitBytes, unjudged);
  const ceiling = Math.max(limitBytes, JUDGED_LIMIT_BYTES);
  const size = r.text.length <= ceiling ? Buffer.byteLength(r.text, 'utf8') : r.text.length;
  if (size <= ceiling) return r;
  return {
    text: '',
    truncated: false,
    refused: `the hook's input is over ${ceiling} bytes even with the tool's output cut, and what a hook judges (tool_input, a prompt, …) is never shortened: it cannot be given to the hook whole`,
  };
}

/**
 * Serialize `payload` to JSON of at most `limitBytes` UTF-8 bytes when possible. Never throws.
 * With `only`, only strings under those top-level keys may be shortened (encodeHookPayload).
 */
export function encodePayload(payload: unknown, limitBytes: number = STDIN_LIMIT_BYTES, only?: ReadonlySet<string>): EncodedPayload {
  // Fast path: ordinary JSON data under the cap.
  let text: string | undefined;
  try {
    text = JSON.stringify(payload) ?? 'null';
  } catch {
    text = undefined; // cycle, BigInt, too deep, or too large for a string
  }
  // UTF-8 never has fewer bytes than UTF-16 units: a long text is over without measuring (and copying) it.
  if (text !== undefined && text.length <= limitBytes && Buffer.byteLength(text, 'utf8') <= limitBytes) {
    return { text, truncated: false };
  }

  const root = { value: toJsonTree(payload) as Json };
  const leaves = collectStrings(root, limitBytes, only);
  const full = stringify(root.value);
  if (Buffer.byteLength(full, 'utf8') <= limitBytes) {
    return { text: full, truncated: false }; // only cycles/BigInts needed fixing
  }
  const r = shortenStrings(root, leaves, full, limitBytes);
  // Restricted: "shortened" only when a string was (the judged rest may be over the limit alone).
  return only ? { text: r.text, truncated: r.text !== full } : r;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface StringLeaf {
  holder: Json[] | { [key: string]: Json };
  key: string | number;
  value: string;
  /** Encoded (quoted, escaped) UTF-8 size. */
  bytes: number;
  /** Raw UTF-8 size, so the omitted count never re-measures the (possibly huge) tail. */
  rawBytes: number;
}

function stringify(value: Json): string {
  return JSON.stringify(value);
}

function encodedBytes(s: string): number {
  return Buffer.byteLength(JSON.stringify(s), 'utf8');
}

/** The first `c` UTF-16 units of a leaf plus its marker; never splits a surrogate pair. */
function shortened(leaf: StringLeaf, c: number): string {
  const s = leaf.value;
  let keep = Math.min(c, s.length);
  const last = s.charCodeAt(keep - 1);
  if (keep > 0 && last >= 0xd800 && last <= 0xdbff) keep -= 1;
  const prefix = s.slice(0, keep);
  return prefix + truncationMarker(leaf.rawBytes - Buffer.byteLength(prefix, 'utf8'));
}

/** Size saved by capping a leaf at `c`; zero when the marker would not make it smaller. */
function savedAt(leaf: StringLeaf, c: number): number {
  if (leaf.value.length <= c) return 0;
  const saved = leaf.bytes - encodedBytes(shortened(leaf, c));
  return Math.max(saved, 0);
}

function shortenStrings(root: { value: Json }, leaves: StringLeaf[], full: string, limitBytes: number): EncodedPayload {
  const total = Buffer.byteLength(full, 'utf8');
  const sizeAt = (c: number): number => {
    let size = total;
    for (const leaf of leaves) size -= savedAt(leaf, c);
    return size;
  };

  // Largest common cap that fits: every string longer than it is cut to it ("water-filling",
  // the fixed point of repeatedly shortening the longest string). Deterministic.
  let lo = 0;
  let hi = leaves.reduce((m, l) => Math.max(m, l.value.length), 0);
  if (sizeAt(lo) > limitBytes) {
    hi = 0; // cannot fit: cut everything that can be cut, best effort
  } else {
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (sizeAt(mid) <= limitBytes) lo = mid;
      else hi = mid - 1;
    }
  }

  let cap = hi;
  for (;;) {
    const text = apply(root, leaves, cap);
    const bytes = Buffer.byteLength(text, 'utf8');
    // sizeAt is exact, so this loop only guards against a wrong estimate; it always ends at cap 0.
    if (bytes <= limitBytes || cap === 0) return { text, truncated: true };
    cap = Math.max(0, cap - Math.max(1, bytes - limitBytes));
  }
}

function apply(root: { value: Json }, leaves: StringLeaf[], cap: number): string {
  for (const leaf of leaves) {
    const next = savedAt(leaf, cap) > 0 ? shortened(leaf, cap) : leaf.value;
    (leaf.holder as Record<string | number, Json>)[leaf.key] = next;
  }
  return stringify(root.value);
}

/**
 * The string leaves; one longer than `6 × limitBytes + 70` UTF-16 units is cut to that length in
 * place. Any cap the search can pick is below `limitBytes`, and a prefix that short encodes to at
 * most 6 bytes a unit (\u00XX) plus quotes and the marker (< 70 bytes), so the cut string is
 * shortened exactly where the whole one would be: the result is the same. It keeps every later
 * measurement and copy proportional to the limit, not to a 100 MB tool output (~8× its size before).
 */
function collectStrings(root: { value: Json }, limitBytes: number, only?: ReadonlySet<string>): StringLeaf[] {
  const maxUnits = 6 * limitBytes + 70;
  const leaves: StringLeaf[] = [];
  const stack: Array<Json[] | { [key: string]: Json }> = [];
  const visit = (node: Json[] | { [key: string]: Json }, key: string | number): void => {
    const v = (node as Record<string | number, Json>)[key];
    if (typeof v === 'string') {
      const rawBytes = Buffer.byteLength(v, 'utf8');
      let value = v;
      if (v.length > maxUnits) {
        value = v.slice(0, maxUnits);
        const last = value.charCodeAt(value.length - 1);
        if (last >= 0xd800 && last <= 0xdbff) value = value.slice(0, -1); // never split a surrogate pair
        (node as Record<string | number, Json>)[key] = value;
      }
      leaves.push({ holder: node, key, value, bytes: encodedBytes(value), rawBytes });
    } else if (v !== null && typeof v === 'object') stack.push(v);
  };
  const top = root.value;
  if (!only) stack.push(root as { [key: string]: Json });
  // Only the named top-level fields are walked: a string anywhere else is judged and kept whole.
  else if (top !== null && typeof top === 'object' && !Array.isArray(top)) for (const k of Object.keys(top)) if (only.has(k)) visit(top, k);
  while (stack.length > 0) {
    const node = stack.pop()!;
    const keys: Array<string | number> = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    for (const key of keys) visit(node, key);
  }
  return leaves;
}

/** JSON.stringify's view of `value` as plain data, with the throwing cases replaced. */
function toJsonTree(input: unknown): Json | undefined {
  const ancestors = new Set<object>();
  let nodes = 0;

  const visit = (raw: unknown, key: string, depth: number): Json | undefined => {
    let value = raw;
    if (value !== null && (typeof value === 'object' || typeof value === 'bigint')) {
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') {
        try {
          value = toJSON.call(value, key);
        } catch {
          return '[toJSON failed]';
        }
      }
    }
    // Boxed primitives serialize as their primitive.
    if (value instanceof Number || value instanceof String || value instanceof Boolean) {
      value = value.valueOf();
    }
    switch (typeof value) {
      case 'string':
      case 'boolean':
        return value;
      case 'number':
        return Number.isFinite(value) ? value : null;
      case 'bigint':
        return value.toString();
      case 'undefined':
      case 'function':
      case 'symbol':
        return undefined;
    }
    if (value === null) return null;
    const obj = value as object;
    if (ancestors.has(obj)) return CYCLE_MARKER;
    if (depth >= MAX_DEPTH) return DEPTH_MARKER;
    if (++nodes > MAX_NODES) return SIZE_MARKER;
    ancestors.add(obj);
    try {
      if (Array.isArray(obj)) {
        return obj.map((item, i) => visit(item, String(i), depth + 1) ?? null);
      }
      // Null prototype: a "__proto__" key from JSON.parse must stay an ordinary property.
      const out = Object.create(null) as { [key: string]: Json };
      for (const k of Object.keys(obj)) {
        let item: unknown;
        try {
          item = (obj as Record<string, unknown>)[k];
        } catch {
          item = '[getter failed]';
        }
        const v = visit(item, k, depth + 1);
        if (v !== undefined) out[k] = v;
      }
      return out;
    } finally {
      ancestors.delete(obj);
    }
  };

  return visit(input, '', 0) ?? null;
}

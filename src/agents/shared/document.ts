/**
 * Reading a config document: JSON, JSON with comments for Gemini CLI and Qwen Code, or TOML for
 * Kimi and Codex's config.toml. Apart from the agents' tables (all.ts re-exports it), so
 * dispatch's no-hooks check reads files without loading every adapter.
 */
export type ReadDocument =
  | { ok: true; doc: unknown; format: 'json' | 'toml' }
  | { ok: false; message: string; line?: number; column?: number };

function isTomlFile(file: string, text: string): boolean {
  if (/\.toml$/i.test(file)) return true;
  if (/\.json$/i.test(file)) return false;
  const first = text.trimStart()[0];
  return first !== undefined && first !== '{' && first !== '[';
}

/** Settings files of agents that read JSON with comments and trailing commas (Gemini CLI, Qwen Code). */
const JSONC_FILE = /(^|[\\/])(\.gemini|\.qwen|gemini-cli)[\\/][^\\/]*\.json$/i;
const JSONC_DIALECTS = new Set(['gemini', 'qwen']);

export function isJsoncFile(file: string, dialect?: string): boolean {
  return dialect !== undefined ? JSONC_DIALECTS.has(dialect) : JSONC_FILE.test(file);
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split(/\r\n|\r|\n/);
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

/** JSON with `//` and block comments and trailing commas, as Gemini CLI and Qwen Code read it. */
async function readJsonc(text: string): Promise<ReadDocument> {
  const { parse, printParseErrorCode } = await import('jsonc-parser');
  const errors: import('jsonc-parser').ParseError[] = [];
  const doc: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  const first = errors[0];
  if (!first) return { ok: true, doc: doc ?? {}, format: 'json' };
  const at = lineColumn(text, first.offset);
  return {
    ok: false,
    message: `invalid JSON (with comments): ${printParseErrorCode(first.error)} at line ${at.line}, column ${at.column}`,
    ...at,
  };
}

/**
 * Parse a config document; TOML is loaded only for TOML files, jsonc-parser only for JSON that
 * strict parsing rejects in a Gemini/Qwen file (`jsonc`: default from the file's path). Never throws.
 */
export async function readDocument(file: string, text: string, opts: { jsonc?: boolean } = {}): Promise<ReadDocument> {
  if (isTomlFile(file, text)) {
    try {
      const { parse } = await import('smol-toml');
      return { ok: true, doc: parse(text), format: 'toml' };
    } catch (err) {
      const e = err as { message?: string; line?: number; column?: number };
      const message = String(e?.message ?? err).split('\n')[0] ?? 'invalid TOML';
      return { ok: false, message: `invalid TOML: ${message}`, ...(typeof e.line === 'number' ? { line: e.line, column: e.column } : {}) };
    }
  }
  try {
    return { ok: true, doc: text.trim() === '' ? {} : (JSON.parse(text) as unknown), format: 'json' };
  } catch (err) {
    if (opts.jsonc ?? isJsoncFile(file)) return readJsonc(text);
    return { ok: false, message: `invalid JSON: ${(err as Error).message}` };
  }
}

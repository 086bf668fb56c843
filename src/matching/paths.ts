/**
 * File paths a tool call touches, read from its input. Pure and total: odd input gives [].
 *
 * ApplyPatch carries several files in one call; every `*** Add File:`, `*** Delete File:`,
 * `*** Update File:` and `*** Move to:` header counts, so a sensitive path in the third file
 * (or only as a rename target) is still seen (a guard that read only the first path would miss it).
 */

/** Tools whose input has one `file_path`. */
const FILE_PATH_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'Read']);
/** Tools whose optional `path` is the file or directory searched. */
const SEARCH_PATH_TOOLS = new Set(['Glob', 'Grep', 'LS']);
/** Names the patch tool goes by: Claude-style and Codex-style. */
export const APPLY_PATCH_TOOLS: ReadonlySet<string> = new Set(['ApplyPatch', 'apply_patch']);
/** Fields a patch body is found in, most specific first. */
const PATCH_FIELDS = ['patch', 'input', 'command'] as const;

// Header lines only: body lines of a patch start with '+', '-', ' ' or '@', so they never match.
// `s`: the path runs to the end of the line, U+2028 and U+2029 included, which a plain `.` does
// not match: without it a header naming `.env\u2028` was no header here, while the patch tools
// trim the character off and write `.env`.
const PATCH_HEADER = /^[ \t]*\*\*\* (?:Add File|Delete File|Update File|Move to): ?(.*)$/s;

/**
 * A header's path as the patch tools read it, and then some: JavaScript's trim (ours, in
 * src/host/tools/apply-patch.ts) and Rust's (Codex's apply_patch) differ, Rust also trimming
 * U+0085. Trimming what either trims means a guard sees the name a tool may write.
 */
function headerPath(text: string): string {
  return text.replace(/^[\s\u0085]+|[\s\u0085]+$/g, '');
}

export function extractToolPaths(toolName: string, toolInput: unknown): string[] {
  try {
    if (typeof toolName !== 'string' || toolInput === null || typeof toolInput !== 'object') return [];
    const input = toolInput as Record<string, unknown>;
    if (FILE_PATH_TOOLS.has(toolName)) return nonEmpty(input.file_path);
    if (toolName === 'NotebookEdit') return nonEmpty(input.notebook_path);
    if (SEARCH_PATH_TOOLS.has(toolName)) return nonEmpty(input.path);
    if (APPLY_PATCH_TOOLS.has(toolName)) {
      const text = patchTextOf(input);
      return text === undefined ? [] : extractPatchPaths(text);
    }
    return [];
  } catch {
    // A hostile input object (throwing getter, proxy) must not crash matching.
    return [];
  }
}

/** The patch body of an ApplyPatch tool_input (the first field that holds one), or undefined. */
export function patchTextOf(toolInput: unknown): string | undefined {
  try {
    if (toolInput === null || typeof toolInput !== 'object') return undefined;
    const input = toolInput as Record<string, unknown>;
    for (const field of PATCH_FIELDS) {
      const text = patchText(input[field]);
      if (text?.includes('*** ')) return text;
    }
  } catch {
    // A hostile input object: no patch.
  }
  return undefined;
}

/** One file a patch touches, as far as its text says (a patch never carries a file's old content). */
export type PatchFile =
  | { kind: 'add'; path: string; content: string }
  | { kind: 'delete'; path: string }
  | { kind: 'update'; path: string; moveTo?: string; hunks: Array<{ oldText: string; newText: string }> };

const FILE_HEADER = /^[ \t]*\*\*\* (Add File|Delete File|Update File|Move to): ?(.*)$/s;

/**
 * The file operations of an apply_patch body, in order. Lenient where the patch tool is strict
 * (src/host/tools/apply-patch.ts parsePatch): it never throws, a body line of an unexpected
 * shape is read as context, and a header without a path is skipped, so a guard sees every file
 * named even in a patch the tool would refuse. Same headers as extractPatchPaths.
 */
export function parsePatchFiles(patch: string): PatchFile[] {
  if (typeof patch !== 'string') return [];
  const files: PatchFile[] = [];
  let current: PatchFile | undefined;
  let addLines: string[] = [];
  let hunk: { old: string[]; neu: string[] } | undefined;
  let hunks: Array<{ old: string[]; neu: string[] }> = [];
  const finish = () => {
    if (current?.kind === 'add') current.content = addLines.length ? `${addLines.join('\n')}\n` : '';
    if (current?.kind === 'update') current.hunks = hunks.map((h) => ({ oldText: h.old.join('\n'), newText: h.neu.join('\n') }));
    current = undefined;
    addLines = [];
    hunk = undefined;
    hunks = [];
  };
  for (const line of patch.split(/\r?\n|\r/)) {
    const m = FILE_HEADER.exec(line);
    if (m) {
      const path = headerPath(m[2]!);
      if (m[1] === 'Move to') {
        if (!path) continue;
        if (current?.kind === 'update' && current.moveTo === undefined) current.moveTo = path;
        // A rename target out of place (the tool would refuse it) is still a path a guard must see.
        else files.push({ kind: 'update', path, hunks: [] });
        continue;
      }
      finish();
      if (!path) continue;
      if (m[1] === 'Add File') current = { kind: 'add', path, content: '' };
      else if (m[1] === 'Delete File') files.push({ kind: 'delete', path });
      else current = { kind: 'update', path, hunks: [] };
      if (current) files.push(current);
      continue;
    }
    const trimmed = line.trim();
    if (trimmed === '*** Begin Patch' || trimmed === '*** End of File') continue;
    if (trimmed === '*** End Patch') {
      finish();
      continue;
    }
    if (current?.kind === 'add') {
      if (line.startsWith('+')) addLines.push(line.slice(1));
    } else if (current?.kind === 'update') {
      if (line.startsWith('@@')) {
        hunk = { old: [], neu: [] };
        hunks.push(hunk);
        continue;
      }
      if (!hunk) {
        hunk = { old: [], neu: [] };
        hunks.push(hunk);
      }
      const op = line[0];
      const text = op === '+' || op === '-' || op === ' ' ? line.slice(1) : line;
      if (op !== '+') hunk.old.push(text);
      if (op !== '-') hunk.neu.push(text);
    }
  }
  finish();
  return files;
}

/** Every path named by a header line of an apply_patch body, in order, without duplicates. */
export function extractPatchPaths(patch: string): string[] {
  if (typeof patch !== 'string') return [];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const line of patch.split(/\r?\n|\r/)) {
    const m = PATCH_HEADER.exec(line);
    const path = m?.[1] === undefined ? undefined : headerPath(m[1]);
    if (path && !seen.has(path)) {
      seen.add(path);
      out.push(path);
    }
  }
  return out;
}

function nonEmpty(value: unknown): string[] {
  return typeof value === 'string' && value !== '' ? [value] : [];
}

/** A patch is a string, or (Codex exec form) an argv array such as ["apply_patch", "<patch>"]. */
function patchText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const parts = value.filter((v): v is string => typeof v === 'string');
    return parts.length > 0 ? parts.join('\n') : undefined;
  }
  return undefined;
}

/**
 * The host a WebFetch of `url` reaches, lower-case, without a trailing dot or IPv6 brackets; undefined
 * when there is none. WebFetch upgrades scheme-less URLs, so they are parsed the same way. A special
 * scheme is parsed as written, slashes or not: `https:/evil.com`, `https:\\evil.com` and
 * `https:evil.com` all fetch evil.com. Anything else before a colon without `//`
 * (`localhost:8080/x`, `evil.com:443`) is a host and port, as WebFetch reads it.
 */
export function fetchedHost(url: unknown): string | undefined {
  if (typeof url !== 'string' || url.trim() === '') return undefined;
  const text = url.trim();
  let hostname: string;
  try {
    const written = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text) || /^(?:https?|wss?|ftp|file):/i.test(text);
    hostname = new URL(written ? text : `https://${text}`).hostname;
  } catch {
    return undefined;
  }
  hostname = hostname.toLowerCase().replace(/\.$/, '');
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

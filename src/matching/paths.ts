/**
 * File paths a tool call touches, read from its input. Pure and total: odd input gives [].
 *
 * ApplyPatch carries several files in one call; every `*** Add File:`, `*** Delete File:`,
 * `*** Update File:` and `*** Move to:` header counts, so a sensitive path in the third file
 * (or only as a rename target) is still seen (seed 000's gotcha).
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
const PATCH_HEADER = /^[ \t]*\*\*\* (?:Add File|Delete File|Update File|Move to): ?(.*)$/;

export function extractToolPaths(toolName: string, toolInput: unknown): string[] {
  try {
    if (typeof toolName !== 'string' || toolInput === null || typeof toolInput !== 'object') return [];
    const input = toolInput as Record<string, unknown>;
    if (FILE_PATH_TOOLS.has(toolName)) return nonEmpty(input.file_path);
    if (toolName === 'NotebookEdit') return nonEmpty(input.notebook_path);
    if (SEARCH_PATH_TOOLS.has(toolName)) return nonEmpty(input.path);
    if (APPLY_PATCH_TOOLS.has(toolName)) {
      for (const field of PATCH_FIELDS) {
        const text = patchText(input[field]);
        if (text !== undefined && text.includes('*** ')) return extractPatchPaths(text);
      }
    }
    return [];
  } catch {
    // A hostile input object (throwing getter, proxy) must not crash matching.
    return [];
  }
}

/** Every path named by a header line of an apply_patch body, in order, without duplicates. */
export function extractPatchPaths(patch: string): string[] {
  if (typeof patch !== 'string') return [];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const line of patch.split(/\r?\n|\r/)) {
    const m = PATCH_HEADER.exec(line);
    const path = m?.[1]?.trim();
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

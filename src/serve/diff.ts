/**
 * Line diffs for the review panel, as data the page renders with textContent (never HTML).
 * The diffing itself is jsdiff's (`diff` package); this module bounds its cost and shapes the result.
 */
import { structuredPatch } from 'diff';

export interface DiffHunk {
  /** `@@ -a,b +c,d @@` */
  header: string;
  /** Each line starts with ' ', '+' or '-'. */
  lines: string[];
}

export interface LineDiff {
  hunks: DiffHunk[];
  added: number;
  removed: number;
}

/** Inputs larger than this are not diffed (the panel says so instead). */
export const MAX_DIFF_INPUT = 512 * 1024;
const DIFF_TIMEOUT_MS = 1000;

/**
 * Unified diff of two texts with 3 lines of context; undefined when an input is too large or
 * the diff takes too long (a hostile file must not stall the server).
 */
export function lineDiff(before: string, after: string): LineDiff | undefined {
  if (before.length > MAX_DIFF_INPUT || after.length > MAX_DIFF_INPUT) return undefined;
  const patch = structuredPatch('trusted', 'current', before, after, undefined, undefined, { context: 3, timeout: DIFF_TIMEOUT_MS });
  if (!patch) return undefined;
  let added = 0;
  let removed = 0;
  const hunks = patch.hunks.map((h) => {
    const lines = h.lines.filter((l) => !l.startsWith('\\'));
    for (const l of lines) {
      if (l.startsWith('+')) added++;
      else if (l.startsWith('-')) removed++;
    }
    return { header: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, lines };
  });
  return { hunks, added, removed };
}

/** Pretty JSON for diffing (two-space indent, keys in the order given). */
export function prettyJson(value: unknown): string {
  return value === undefined ? '' : `${JSON.stringify(value, null, 2)}\n`;
}

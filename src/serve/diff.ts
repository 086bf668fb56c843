/**
 * Line diffs for the review panel, as data the page renders with textContent (never HTML).
 * The diffing itself is jsdiff's (`diff` package); this module bounds its cost and shapes the result.
 */
import { diffWordsWithSpace, structuredPatch } from 'diff';

interface DiffHunk {
  /** `@@ -a,b +c,d @@` */
  header: string;
  /** Each line starts with ' ', '+' or '-'. */
  lines: string[];
  /**
   * Word-level changes of a changed line, by its index in `lines`: a run of '-' lines followed
   * by as many '+' lines is paired line by line, so a long line that changed in one word shows
   * that word, not the whole line. Segments without the leading marker.
   */
  words?: Record<number, WordSegment[]>;
}

interface WordSegment {
  text: string;
  /** Only on the side it belongs to: 'del' on the '-' line, 'add' on the '+' line. */
  changed?: boolean;
}

/** Lines longer than this are not word-diffed (the line diff stays). */
const MAX_WORD_LINE = 4000;

function wordPairs(lines: readonly string[]): Record<number, WordSegment[]> | undefined {
  const out: Record<number, WordSegment[]> = {};
  let found = false;
  for (let i = 0; i < lines.length; ) {
    if (!lines[i]!.startsWith('-')) {
      i++;
      continue;
    }
    let d = i;
    while (d < lines.length && lines[d]!.startsWith('-')) d++;
    let a = d;
    while (a < lines.length && lines[a]!.startsWith('+')) a++;
    const dels = d - i;
    if (dels === a - d) {
      for (let k = 0; k < dels; k++) {
        const before = lines[i + k]!.slice(1);
        const after = lines[d + k]!.slice(1);
        if (before.length > MAX_WORD_LINE || after.length > MAX_WORD_LINE) continue;
        const parts = diffWordsWithSpace(before, after);
        out[i + k] = parts.filter((x) => !x.added).map((x) => (x.removed ? { text: x.value, changed: true } : { text: x.value }));
        out[d + k] = parts.filter((x) => !x.removed).map((x) => (x.added ? { text: x.value, changed: true } : { text: x.value }));
        found = true;
      }
    }
    i = a;
  }
  return found ? out : undefined;
}

export interface LineDiff {
  hunks: DiffHunk[];
  added: number;
  removed: number;
}

/** Inputs larger than this are not diffed (the panel says so instead). */
const MAX_DIFF_INPUT = 512 * 1024;
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
    const words = wordPairs(lines);
    return { header: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, lines, ...(words ? { words } : {}) };
  });
  return { hunks, added, removed };
}

/** Pretty JSON for diffing (two-space indent, keys in the order given). */
export function prettyJson(value: unknown): string {
  return value === undefined ? '' : `${JSON.stringify(value, null, 2)}\n`;
}

/** What the include resolvers (imports-python.ts, imports-js.ts) return, and how they build it. */

/** What a script loads into its own interpreter. Paths absolute; a path in `files` may be absent (pinned as absent). */
export interface Includes {
  files: string[];
  trees: string[];
  unpinned: string[];
  /** Python: the directories imports were looked up in (sys.path, which later modules share). */
  dirs?: string[];
  /** Further records, as Pins.records (`glob:`-keyed): what of a file decides, where not all of it. */
  records?: Record<string, string>;
  /** Files the script reads as data (includes.ts pins those present in the workspace), and files it writes (never pinned). */
  data?: string[];
  written?: string[];
}

/** Includes with duplicates dropped, in the order first seen. */
export class IncludesBuilder {
  private readonly seen = {
    files: new Set<string>(),
    trees: new Set<string>(),
    unpinned: new Set<string>(),
    data: new Set<string>(),
    written: new Set<string>(),
  };

  file(p: string): void {
    if (!p.includes('\0')) this.seen.files.add(p);
  }

  tree(p: string): void {
    this.seen.trees.add(p);
  }

  unpin(why: string): void {
    this.seen.unpinned.add(why);
  }

  /** A file the script reads (`written`: writes) at a path the model determined. */
  read(p: string, written = false): void {
    this.seen[written ? 'written' : 'data'].add(p);
  }

  result(): Includes {
    const { files, trees, unpinned, data, written } = this.seen;
    return {
      files: [...files],
      trees: [...trees],
      unpinned: [...unpinned],
      ...(data.size > 0 ? { data: [...data] } : {}),
      ...(written.size > 0 ? { written: [...written] } : {}),
    };
  }
}

/** The tokens of each argument of the call whose `(` is at `open`, and the index after its `)`. */
export function callArgs<T extends { t: string; v: string }>(st: T[], open: number): { args: T[][]; end: number } {
  const args: T[][] = [];
  let cur: T[] = [];
  let depth = 0;
  let j = open + 1;
  for (; j < st.length; j++) {
    const t = st[j]!;
    if (t.t === 'op' && '([{'.includes(t.v)) depth++;
    if (t.t === 'op' && ')]}'.includes(t.v) && depth-- === 0) break;
    if (depth === 0 && t.v === ',' && t.t === 'op') {
      args.push(cur);
      cur = [];
    } else cur.push(t);
  }
  if (cur.length > 0) args.push(cur);
  return { args, end: j + 1 };
}

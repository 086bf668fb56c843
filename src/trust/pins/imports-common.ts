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
}

/** Includes with duplicates dropped, in the order first seen. */
export class IncludesBuilder {
  private readonly seen = { files: new Set<string>(), trees: new Set<string>(), unpinned: new Set<string>() };

  file(p: string): void {
    if (!p.includes('\0')) this.seen.files.add(p);
  }

  tree(p: string): void {
    this.seen.trees.add(p);
  }

  unpin(why: string): void {
    this.seen.unpinned.add(why);
  }

  result(): Includes {
    return { files: [...this.seen.files], trees: [...this.seen.trees], unpinned: [...this.seen.unpinned] };
  }
}

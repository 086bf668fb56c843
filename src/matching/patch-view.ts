/**
 * The per-file view of a patch: what a Claude-style file-tool hook (`Edit`, `Write`, `MultiEdit`
 * matcher, no `ApplyPatch`) sees when the agent's edit tool is a multi-file patch (Codex's
 * apply_patch, Droid's ApplyPatch). Claude Code has no such tool, so such a guard was written
 * for one file per call; it gets one call per file the patch touches, in the shape Claude sends.
 *
 * Shapes chosen (docs/dialects.md "Patches and Claude file-tool hooks"):
 * - `*** Add File`    → Write {file_path, content}
 * - `*** Update File` → Edit {file_path, old_string, new_string}: the hunks' old and new sides,
 *   joined with a newline (a patch carries hunks, never the whole file);
 *   a `*** Move to` target gets the same view under its own path
 * - `*** Delete File` → Write {file_path, content: ""}: what emptying the file looks like to a
 *   Claude guard, which reads file_path and would refuse a write to a protected file
 * When the matcher does not select that tool name, the next one it selects is used, in the
 * shape of that tool (an added file as Edit: old_string "" and new_string the content; an
 * update as MultiEdit: one edit per hunk; as Write: the hunks' new side as content).
 */
import { isAbsolute, resolve } from 'node:path';
import { parsePatchFiles, patchTextOf, type PatchFile } from './paths.js';

export const FILE_TOOLS = ['Write', 'Edit', 'MultiEdit'] as const;
export type FileTool = (typeof FILE_TOOLS)[number];

/** Preferred tool name per operation, most faithful first. */
const PREFERENCE: Record<PatchFile['kind'], readonly FileTool[]> = {
  add: ['Write', 'Edit', 'MultiEdit'],
  update: ['Edit', 'MultiEdit', 'Write'],
  delete: ['Write', 'Edit', 'MultiEdit'],
};

/** One file of the patch as one Claude tool call, before the tool name is chosen. */
export interface FileView {
  kind: PatchFile['kind'];
  /** Absolute, resolved against the call's cwd as Claude's file_path is. */
  filePath: string;
  /** Write: content. */
  content: string;
  /** Edit/MultiEdit: one old/new pair per hunk (one pair for add and delete). */
  edits: Array<{ old_string: string; new_string: string }>;
}

/** The files of a patch tool_input, one view per path touched (a rename target counts). */
export function fileViewsOf(toolInput: unknown, cwd: string): FileView[] {
  const text = patchTextOf(toolInput);
  if (text === undefined) return [];
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(cwd, p));
  const views: FileView[] = [];
  for (const f of parsePatchFiles(text)) {
    if (f.kind === 'add')
      views.push({ kind: 'add', filePath: abs(f.path), content: f.content, edits: [{ old_string: '', new_string: f.content }] });
    else if (f.kind === 'delete')
      views.push({ kind: 'delete', filePath: abs(f.path), content: '', edits: [{ old_string: '', new_string: '' }] });
    else {
      const edits = f.hunks.map((h) => ({ old_string: h.oldText, new_string: h.newText }));
      const content = f.hunks.map((h) => h.newText).join('\n');
      for (const p of f.moveTo ? [f.path, f.moveTo] : [f.path]) views.push({ kind: 'update', filePath: abs(p), content, edits });
    }
  }
  return views;
}

/** The tool name a hook sees a file as: the most faithful one its matcher selects, or undefined. */
export function viewToolFor(kind: PatchFile['kind'], selects: (tool: FileTool) => boolean): FileTool | undefined {
  return PREFERENCE[kind].find(selects);
}

/** The Claude-shaped tool_input of one file as `tool`. */
export function viewInput(view: FileView, tool: FileTool): Record<string, unknown> {
  if (tool === 'Write') return { file_path: view.filePath, content: view.content };
  if (tool === 'MultiEdit') return { file_path: view.filePath, edits: view.edits.map((e) => ({ ...e })) };
  return {
    file_path: view.filePath,
    old_string: view.edits.map((e) => e.old_string).join('\n'),
    new_string: view.edits.map((e) => e.new_string).join('\n'),
  };
}

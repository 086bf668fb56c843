/** Read, Write, Edit, MultiEdit: absolute `file_path` inside the workspace (the reference's file-tool inputs). */
import type { Stats } from 'node:fs';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ToolError, type HostTool } from '../types.js';
import { confine, writeInside } from './workspace.js';

const absolutePath = z
  .string()
  .min(1)
  .refine((p) => path.isAbsolute(p), { message: 'must be an absolute path' });
const MAX_READ_BYTES = 10 * 1024 * 1024;

async function readText(file: string): Promise<string> {
  let stat: Stats;
  try {
    stat = await fs.stat(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ToolError(code === 'ENOENT' ? `File does not exist: ${file}` : `Cannot read ${file}: ${code ?? (e as Error).message}`);
  }
  if (stat.isDirectory()) throw new ToolError(`${file} is a directory`);
  if (stat.size > MAX_READ_BYTES) throw new ToolError(`${file} is larger than ${MAX_READ_BYTES} bytes`);
  return fs.readFile(file, 'utf8');
}

const readInput = z.strictObject({
  file_path: absolutePath,
  offset: z.number().int().nonnegative().optional(),
  limit: z.number().int().positive().optional(),
});
export function readTool(): HostTool<z.infer<typeof readInput>> {
  return {
    name: 'Read',
    description: 'Read a text file; lines are numbered from 1.',
    inputSchema: readInput,
    readOnly: true,
    async run(args, ctx) {
      const file = confine(args.file_path, ctx.workspace, ctx.cwd, ctx.roots);
      const text = await readText(file);
      const all = text.split('\n');
      if (all.length > 1 && all[all.length - 1] === '') all.pop();
      const start = Math.max(1, args.offset ?? 1);
      const slice = all.slice(start - 1, args.limit !== undefined ? start - 1 + args.limit : undefined);
      const content = slice.map((line, i) => `${String(start + i).padStart(6)}\t${line}`).join('\n');
      return {
        output: {
          type: 'text',
          file: { filePath: file, content: slice.join('\n'), numLines: slice.length, startLine: start, totalLines: all.length },
        },
        content: content === '' ? '(empty file)' : content,
      };
    },
  };
}

const writeInput = z.strictObject({ file_path: absolutePath, content: z.string() });
export function writeTool(): HostTool<z.infer<typeof writeInput>> {
  return {
    name: 'Write',
    description: 'Create or overwrite a file.',
    inputSchema: writeInput,
    edits: true,
    async run(args, ctx) {
      const file = confine(args.file_path, ctx.workspace, ctx.cwd, ctx.roots);
      const existed = await fs.stat(file).then(
        (s) => s.isFile(),
        () => false,
      );
      await writeInside(file, args.content, ctx.workspace, ctx.roots);
      return { output: { type: existed ? 'update' : 'create', filePath: file }, content: `${existed ? 'Updated' : 'Created'} ${file}` };
    },
  };
}

const edit = z.strictObject({ old_string: z.string(), new_string: z.string(), replace_all: z.boolean().optional() });
type OneEdit = z.infer<typeof edit>;

/** Apply one edit to text; a missing, ambiguous or no-op edit is an error (nothing is written). */
function applyEdit(text: string, e: OneEdit, file: string, n?: number): string {
  const where = n === undefined ? '' : ` (edit ${n + 1})`;
  if (e.old_string === e.new_string) throw new ToolError(`old_string and new_string are the same${where}`);
  if (e.old_string === '') {
    if (text !== '') throw new ToolError(`old_string is empty but ${file} is not${where}`);
    return e.new_string;
  }
  const count = text.split(e.old_string).length - 1;
  if (count === 0) throw new ToolError(`old_string not found in ${file}${where}`);
  if (count > 1 && !e.replace_all)
    throw new ToolError(`old_string occurs ${count} times in ${file}; give more context or set replace_all${where}`);
  return e.replace_all ? text.split(e.old_string).join(e.new_string) : text.replace(e.old_string, () => e.new_string);
}

const editInput = edit.extend({ file_path: absolutePath });
export function editTool(): HostTool<z.infer<typeof editInput>> {
  return {
    name: 'Edit',
    description: 'Replace a string in a file.',
    inputSchema: editInput,
    edits: true,
    async run(args, ctx) {
      const file = confine(args.file_path, ctx.workspace, ctx.cwd, ctx.roots);
      const before = await readText(file).catch((e) => {
        if (args.old_string === '') return '';
        throw e;
      });
      const after = applyEdit(before, args, file);
      await writeInside(file, after, ctx.workspace, ctx.roots);
      return {
        output: { filePath: file, oldString: args.old_string, newString: args.new_string, replaceAll: args.replace_all ?? false },
        content: `Edited ${file}`,
      };
    },
  };
}

const multiEditInput = z.strictObject({ file_path: absolutePath, edits: z.array(edit).min(1) });
export function multiEditTool(): HostTool<z.infer<typeof multiEditInput>> {
  return {
    name: 'MultiEdit',
    description: 'Apply several edits to one file, all or none.',
    inputSchema: multiEditInput,
    edits: true,
    async run(args, ctx) {
      const file = confine(args.file_path, ctx.workspace, ctx.cwd, ctx.roots);
      const before = await readText(file).catch((e) => {
        if (args.edits[0]?.old_string === '') return '';
        throw e;
      });
      const after = args.edits.reduce((text, e, i) => applyEdit(text, e, file, i), before);
      await writeInside(file, after, ctx.workspace, ctx.roots);
      return { output: { filePath: file, edits: args.edits.length }, content: `Applied ${args.edits.length} edit(s) to ${file}` };
    },
  };
}

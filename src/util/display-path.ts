import { relative } from 'node:path';

/** A file as the user would type it: relative to cwd when inside it, else absolute. */
export function displayPath(file: string, cwd = process.cwd()): string {
  const rel = relative(cwd, file);
  return rel && !rel.startsWith('..') ? rel : file;
}

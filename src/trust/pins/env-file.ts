/** The NODE_OPTIONS of a file given to `node --env-file` (interpreters.ts), read as node reads them. */
import { readFileSync } from './observed-fs.js';
import { resolveIn, unpin, type Run, type State } from './model.js';
import { NODE_OPTIONS, readOptions, type ReadOption } from './options.js';

/**
 * An env file's NODE_OPTIONS are options of the node that reads it (`--require=./pre.js` runs
 * pre.js): pin what they load, as if they were on the command line. The file itself is pinned
 * by its option. A value this reading cannot take word for word (quotes inside it, escapes,
 * `$`, a value over several lines) unpins the hook. False when it was unpinned.
 */
export function envFileOptions(
  run: Run,
  st: State,
  what: string,
  file: string,
  /** Pin what one option loads (interpreters.ts pinOption); false when the hook was unpinned. */
  pin: (o: ReadOption, what: string) => boolean,
): boolean {
  const abs = resolveIn(st, file);
  let text: string;
  try {
    text = abs === undefined ? '' : readFileSync(abs, 'utf8');
  } catch {
    return true; // missing: pinned as missing by its option, so creating it reads as modified
  }
  const lines = [...text.matchAll(/^[ \t]*(?:export[ \t]+)?NODE_OPTIONS[ \t]*=[ \t]*(.*)$/gm)];
  if (lines.length === 0) return true;
  let value = lines[lines.length - 1]![1]!.trimEnd();
  const q = value[0];
  if (q === '"' || q === "'" || q === '`') {
    if (value.length < 2 || !value.endsWith(q)) return unpinned(run, `${what} sets NODE_OPTIONS over several lines; that is not modelled`);
    value = value.slice(1, -1);
  } else value = value.replace(/[ \t]+#.*$/, '');
  if (/["'`\\$\n]/.test(value)) return unpinned(run, `${what} sets NODE_OPTIONS with quotes, escapes or variables; that is not modelled`);
  const words = value.split(/[ \t]+/).filter(Boolean);
  const read = readOptions(words, NODE_OPTIONS);
  if (read.problem || read.ambiguous || read.endedBy || read.operand < words.length)
    return unpinned(run, `${what} sets NODE_OPTIONS that are not modelled (${value})`);
  return read.options.every((o) => pin(o, `${what}: NODE_OPTIONS`));
}

function unpinned(run: Run, reason: string): false {
  unpin(run, reason);
  return false;
}

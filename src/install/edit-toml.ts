/**
 * Kimi's `[[hooks]]` tables in config.toml: the dispatch tables go in one block between two
 * comment lines at the end of the file, so the rest of the file is never touched and the block
 * can be found and removed again. The file must parse before and after.
 */
import { parse } from 'smol-toml';

const BEGIN = '# >>> agent-hooks install (agent-hooks uninstall removes this block)';
const END = '# <<< agent-hooks install';

function parses(file: string, text: string): string | undefined {
  try {
    parse(text);
    return undefined;
  } catch (err) {
    return `${file}: cannot parse it as TOML (${(err as Error).message.split('\n')[0]}); not written`;
  }
}

/** The text without our block (and the blank line put before it). */
export function removeBlock(text: string): string {
  const start = text.indexOf(`\n${BEGIN}\n`);
  const at = start >= 0 ? start : text.startsWith(`${BEGIN}\n`) ? -1 : undefined;
  if (at === undefined) return text;
  const end = text.indexOf(`${END}\n`, at + 1);
  if (end < 0) return text;
  const before = text.slice(0, Math.max(at, 0));
  return (before.endsWith('\n\n') && at > 0 ? before.slice(0, -1) : before) + text.slice(end + END.length + 1);
}

/** The text with one `[[hooks]]` table per event (event, command) in our block. */
export function addBlock(
  file: string,
  text: string | undefined,
  commands: ReadonlyMap<string, string>,
): { text: string } | { error: string } {
  const old = text ?? '';
  const bad = parses(file, old);
  if (bad) return { error: bad };
  const tables = [...commands].map(
    ([event, command]) => `[[hooks]]\nevent = ${JSON.stringify(event)}\ncommand = ${JSON.stringify(command)}\n`,
  );
  const block = `${BEGIN}\n${tables.join('\n')}${END}\n`;
  const rest = removeBlock(old);
  const lead = rest === '' ? '' : rest.endsWith('\n') ? '\n' : '\n\n';
  const out = `${rest}${lead}${block}`;
  const broken = parses(file, out);
  return broken
    ? { error: `${broken.replace('; not written', '')} once the hooks are added (does it define hooks otherwise?); not written` }
    : { text: out };
}

/**
 * Adding and removing dispatch entries in a JSON(C) hooks file (`hooks.{event}[]`), with
 * jsonc-parser edits: the user's other hooks, comments and formatting stay as they are.
 */
import { applyEdits, type FormattingOptions, modify, type ParseError, parse, printParseErrorCode } from 'jsonc-parser';
import { isObject } from '../util/is-object.js';
import { INSTALLED_MARK } from '../util/dispatch-line.js';

/** The document, or why it cannot be edited safely. */
function read(file: string, text: string): { doc: Record<string, unknown> } | { error: string } {
  const errors: ParseError[] = [];
  const doc = parse(text, errors, { allowTrailingComma: true });
  if (errors.length) {
    const e = errors[0] as ParseError;
    const line = text.slice(0, e.offset).split('\n').length;
    return { error: `${file}: cannot parse it (${printParseErrorCode(e.error)} at line ${line}); not written` };
  }
  if (text.trim() === '') return { doc: {} };
  if (!isObject(doc)) return { error: `${file}: not a JSON object; not written` };
  if (doc.hooks !== undefined && !isObject(doc.hooks)) return { error: `${file}: "hooks" is not an object; not written` };
  return { doc };
}

function formatting(text: string): FormattingOptions {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
  return {
    insertSpaces: !indent.startsWith('\t'),
    tabSize: indent.startsWith('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

/** Whether an entry (a matcher group, or a flat entry) runs an installed dispatch line. */
export function isInstalledEntry(entry: unknown): boolean {
  if (!isObject(entry)) return false;
  const own = [entry.command, entry.bash].some((c) => typeof c === 'string' && c.includes(INSTALLED_MARK));
  return own || (Array.isArray(entry.hooks) && entry.hooks.some(isInstalledEntry));
}

/** The text with `entries[event]` appended to each event's list (ours from before replaced), or the reason it cannot be. */
export function addEntries(
  file: string,
  text: string | undefined,
  entries: ReadonlyMap<string, Record<string, unknown>>,
  base: Readonly<Record<string, unknown>> = {},
): { text: string } | { error: string } {
  if (text === undefined || text.trim() === '') {
    const hooks = Object.fromEntries([...entries].map(([e, entry]) => [e, [entry]]));
    return { text: `${JSON.stringify({ ...base, hooks }, null, 2)}\n` };
  }
  const r = read(file, text);
  if ('error' in r) return r;
  let out = removeEntries(text, (e) => !entries.has(e) || !sameEntry(r.doc, e, entries.get(e)));
  const opts = { formattingOptions: formatting(text) };
  const hooks = read(file, out);
  if ('error' in hooks) return hooks;
  const current = isObject(hooks.doc.hooks) ? hooks.doc.hooks : undefined;
  const missing = [...entries].filter(([e]) => !sameEntry(hooks.doc, e, entries.get(e)));
  if (!current && missing.length)
    return { text: applyEdits(out, modify(out, ['hooks'], Object.fromEntries(missing.map(([e, x]) => [e, [x]])), opts)) };
  for (const [event, entry] of missing) {
    const list = current?.[event];
    if (list !== undefined && !Array.isArray(list)) return { error: `${file}: hooks.${event} is not a list; not written` };
    out = applyEdits(
      out,
      modify(out, list === undefined ? ['hooks', event] : ['hooks', event, -1], list === undefined ? [entry] : entry, {
        ...opts,
        isArrayInsertion: list !== undefined,
      }),
    );
  }
  return { text: out };
}

function sameEntry(doc: Record<string, unknown>, event: string, entry: unknown): boolean {
  const list = isObject(doc.hooks) ? doc.hooks[event] : undefined;
  return Array.isArray(list) && list.some((x) => JSON.stringify(x) === JSON.stringify(entry));
}

/** The text without the installed entries of the events `drop` selects; an event list or `hooks` left empty goes too. */
export function removeEntries(text: string, drop: (event: string) => boolean = () => true): string {
  const doc = parse(text, [], { allowTrailingComma: true }) as unknown;
  if (!isObject(doc) || !isObject(doc.hooks)) return text;
  const opts = { formattingOptions: formatting(text) };
  let out = text;
  for (const [event, list] of Object.entries(doc.hooks)) {
    if (!Array.isArray(list) || !drop(event)) continue;
    const ours = list.flatMap((x, i) => (isInstalledEntry(x) ? [i] : []));
    if (!ours.length) continue;
    if (ours.length === list.length) out = applyEdits(out, modify(out, ['hooks', event], undefined, opts));
    else for (const i of ours.reverse()) out = applyEdits(out, modify(out, ['hooks', event, i], undefined, opts));
  }
  const after = parse(out, [], { allowTrailingComma: true }) as Record<string, unknown>;
  if (isObject(after.hooks) && Object.keys(after.hooks).length === 0 && Object.keys(doc.hooks).length > 0)
    out = applyEdits(out, modify(out, ['hooks'], undefined, opts));
  return out;
}

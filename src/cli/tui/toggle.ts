/**
 * Switching one hook on or off in its settings file (`agent-hooks hooks`): sets or removes the
 * handler's `"enabled": false`. Only a Claude-format JSON settings file the user edits
 * (user, project or local settings) is written; anything else says where to edit instead.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Provenance } from '../../types.js';
import { isObject } from '../../util/is-object.js';

const HANDLER_PATH = /^hooks\.([A-Za-z]+)\[(\d+)\]\.hooks\[(\d+)\]$/;
const EDITABLE: ReadonlySet<string> = new Set(['user', 'project', 'local']);

/** The handler object at `path` in a parsed settings document, or undefined. */
function handlerAt(doc: unknown, path: string): Record<string, unknown> | undefined {
  const m = HANDLER_PATH.exec(path);
  if (!m || !isObject(doc) || !isObject(doc.hooks)) return undefined;
  const groups = doc.hooks[m[1]!];
  const group = Array.isArray(groups) ? groups[Number(m[2])] : undefined;
  const handlers = isObject(group) ? group.hooks : undefined;
  const handler = Array.isArray(handlers) ? handlers[Number(m[3])] : undefined;
  return isObject(handler) ? handler : undefined;
}

/** Writes the switch; returns an error message when this hook cannot be switched here. */
export function setHookEnabled(source: Provenance, enabled: boolean): string | undefined {
  const file = source.file;
  if (!file || !EDITABLE.has(source.kind) || !file.endsWith('.json'))
    return `this ${source.kind} hook is not in a settings file this menu edits; set "enabled": ${enabled} on it in ${file ?? 'its source'}`;
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    return `cannot read ${file} as JSON: ${(err as Error).message}`;
  }
  const handler = handlerAt(doc, source.path);
  if (!handler) return `${file}: no hook at ${source.path} (the file changed?)`;
  if (enabled) delete handler.enabled;
  else handler.enabled = false;
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  return undefined;
}

/**
 * Liberal reading of a `hooks` object: keys Claude Code ignores in a matcher group or a hook
 * handler (a plugin's `rewakeMessage`, a hand-written `description`) are warnings with a
 * "did you mean" hint, and are dropped before strict validation, so a file Claude Code runs is
 * never rejected here for them. Everything else (wrong types, unknown events or hook types,
 * missing fields) stays an error for the strict schema to report.
 */
import type { Diagnostic } from '../types.js';
import { formatPath } from './diagnostics.js';
import { closest } from '../util/did-you-mean.js';
import { GROUP_KEYS, HANDLER_KEYS } from './keys.js';
import { isObject as isRecord } from '../util/is-object.js';

/** Own keys of `obj` outside `allowed`, as warnings; returns a copy without them (or obj itself). */
function dropUnknown(
  obj: Record<string, unknown>,
  allowed: readonly string[],
  what: string,
  path: readonly PropertyKey[],
  file: string | undefined,
  diagnostics: Diagnostic[],
): Record<string, unknown> {
  const unknown = Object.keys(obj).filter((k) => !allowed.includes(k));
  if (unknown.length === 0) return obj;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(obj)) {
    if (!unknown.includes(key)) Object.defineProperty(copy, key, { value: obj[key], enumerable: true, writable: true, configurable: true });
  }
  for (const key of unknown) {
    const hint = closest(key, allowed);
    const shown = JSON.stringify(key.length > 80 ? `${key.slice(0, 80)}…` : key);
    diagnostics.push({
      level: 'warning',
      ...(file !== undefined ? { file } : {}),
      path: formatPath([...path, key]),
      message: `unknown ${what} ${shown} ignored${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}`,
    });
  }
  return copy;
}

/**
 * The `hooks` object with unknown matcher-group and handler keys removed (warned about). Shapes
 * it does not understand are left as they are, for the strict schema to report.
 * `path` is where the hooks object sits in its document (e.g. ['hooks']).
 */
export function dropUnknownHookKeys(
  hooks: unknown,
  path: readonly PropertyKey[],
  file: string | undefined,
  diagnostics: Diagnostic[],
): unknown {
  if (!isRecord(hooks)) return hooks;
  let out: Record<string, unknown> | undefined;
  for (const event of Object.keys(hooks)) {
    const groups = hooks[event];
    if (!Array.isArray(groups)) continue;
    let changed = false;
    const cleaned = groups.map((group, gi) => {
      if (!isRecord(group)) return group;
      const gPath = [...path, event, gi];
      let g = dropUnknown(group, GROUP_KEYS, 'key', gPath, file, diagnostics);
      if (Array.isArray(g.hooks)) {
        let handlersChanged = false;
        const handlers = g.hooks.map((h, hi) => {
          if (!isRecord(h)) return h;
          const type = h.type;
          const known =
            typeof type === 'string' && Object.hasOwn(HANDLER_KEYS, type) ? HANDLER_KEYS[type as keyof typeof HANDLER_KEYS] : undefined;
          // An unknown or missing type is an error of its own; its keys are left to the schema.
          if (!known) return h;
          const c = dropUnknown(h, known, `key for a '${String(type)}' hook`, [...gPath, 'hooks', hi], file, diagnostics);
          if (c !== h) handlersChanged = true;
          return c;
        });
        if (handlersChanged) g = { ...g, hooks: handlers };
      }
      if (g !== group) changed = true;
      return g;
    });
    if (changed) {
      out ??= { ...hooks };
      Object.defineProperty(out, event, { value: cleaned, enumerable: true, writable: true, configurable: true });
    }
  }
  return out ?? hooks;
}

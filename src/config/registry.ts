/**
 * Dedup keys and deduplication of normalized hooks.
 *
 * Key: `${pluginRoot ?? skillRoot ?? ''}\0${payload}` (Claude's hookDedupKey). The payload is
 * JSON of [event, matcher, if, type, identifying fields]:
 *   command → command, args, shell    http → url    mcp_tool → server, tool, input (sorted keys)
 *   prompt/agent → prompt, model
 * Claude dedups among the hooks matched for one firing; we dedup statically, so the event and
 * the matcher are part of the key (a match-all matcher — omitted, "" or "*" — normalizes to "").
 * This never drops a hook Claude would run; it can keep two copies that differ only in matcher
 * text (e.g. "Bash" and "Bash|Edit") where Claude would run one on a Bash call.
 * Behaviour modifiers (timeout, env, async, statusMessage, …) are not identifying: the
 * surviving copy's values apply.
 */
import type { EventName } from '../events/catalog.js';
import type { HookHandler, NormalizedHook, Provenance } from '../types.js';
// Object keys sorted, so `input` objects compare by content.
import { canonicalJson as stableJson } from '../util/canonical-json.js';

function handlerPayload(h: HookHandler): unknown[] {
  switch (h.type) {
    case 'command':
      return [h.command, h.args ?? null, h.shell ?? null];
    case 'http':
      return [h.url];
    case 'mcp_tool':
      return [h.server, h.tool, h.input ?? null];
    case 'prompt':
    case 'agent':
      return [h.prompt, h.model ?? null];
    case 'function':
      return [];
  }
}

export function normalizeMatcher(matcher: string | undefined): string {
  return matcher === undefined || matcher === '' || matcher === '*' ? '' : matcher;
}

/** Dedup key of a hook; function hooks get a key that is unique to their id. */
export function dedupKeyFor(hook: {
  id: string;
  event: EventName;
  matcher?: string;
  handler: HookHandler;
  source: Pick<Provenance, 'pluginRoot' | 'skillRoot'>;
}): string {
  const root = hook.source.pluginRoot ?? hook.source.skillRoot ?? '';
  if (hook.handler.type === 'function') return `${root}\0function\0${hook.id}`;
  const payload = stableJson([
    hook.event,
    normalizeMatcher(hook.matcher),
    hook.handler.if ?? '',
    hook.handler.type,
    ...handlerPayload(hook.handler),
  ]);
  // A disabled copy never stands in for an enabled one (dedup keeps the first of equal keys).
  return `${root}\0${payload}${hook.handler.enabled === false ? '\0disabled' : ''}`;
}

/** A key no other hook shares: the hook never collapses with another (dedup or firing keys). */
export function keyOfItsOwn(id: string): string {
  return `\0own\0${id}`;
}

/**
 * Key under which the hooks matched for one firing collapse, as Claude Code does at run time:
 * the source root and the handler's identity, without event and matcher, so one command listed
 * in two matcher groups (`Bash` and `*`) runs once. The command text is compared as written
 * (a variant that differs in whitespace runs separately). Another dialect's hooks keep their
 * agent's rules, and function hooks never collapse: both get a key of their own.
 */
export function firingKeyFor(hook: NormalizedHook): string {
  const root = hook.source.pluginRoot ?? hook.source.skillRoot ?? '';
  // Kimi runs one command once per firing however many of its hooks matched (one firing has one cwd).
  if (hook.dialect === 'kimi' && hook.handler.type === 'command') return `\0kimi\0${hook.handler.command}`;
  if (hook.handler.type === 'function' || (hook.dialect !== undefined && hook.dialect !== 'claude')) return keyOfItsOwn(hook.id);
  return `${root}\0${stableJson([hook.handler.if ?? '', hook.handler.type, ...handlerPayload(hook.handler)])}`;
}

/** Managed policy hooks and hooks of plugins force-enabled by policy. */
export function isManagedHook(hook: NormalizedHook): boolean {
  return hook.source.kind === 'managed' || (hook.source as Provenance & { managed?: boolean }).managed === true;
}

/**
 * Collapse hooks with equal dedupKey. Like Claude's `new Map(...)`: the first occurrence keeps
 * its position and the last occurrence wins (its handler and provenance are kept) — except that
 * a managed hook is never replaced by a non-managed copy, so copying a policy hook into project
 * settings cannot subject it to trust review or to a non-managed disable.
 * Function hooks are never deduplicated. Input order is otherwise preserved.
 */
export function dedupeHooks(hooks: readonly NormalizedHook[]): NormalizedHook[] {
  const slots: NormalizedHook[] = [];
  const slotOf = new Map<string, number>();
  for (const hook of hooks) {
    if (hook.handler.type === 'function') {
      slots.push(hook);
      continue;
    }
    const at = slotOf.get(hook.dedupKey);
    if (at === undefined) {
      slotOf.set(hook.dedupKey, slots.length);
      slots.push(hook);
    } else if (!(isManagedHook(slots[at]!) && !isManagedHook(hook))) {
      slots[at] = hook;
    }
  }
  return slots;
}

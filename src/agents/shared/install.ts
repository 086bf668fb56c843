/** What the agents' install descriptions share (`InstallSpec`, src/agents/types.ts; src/install/ writes them). */
import { join } from 'node:path';
import { type EventName, isEventName } from '../../events/facts.js';
import type { Dialect, EventMapping, InstallScope, InstallSpec, LocationContext } from '../types.js';

/**
 * The native events dispatch is installed for: each that has an engine event, is not a
 * tool-specific alias of a generic one (Cursor's beforeShellExecution is its preToolUse of
 * Shell: installing both would judge a shell call twice), and that the agent fires at all.
 */
export function deliveredEvents(d: Dialect, skip: (m: EventMapping) => boolean = () => false): EventMapping[] {
  const neverFired = new Set((d.undeliverable ?? []).filter((u) => u.part === 'fire').map((u) => u.event));
  return d.events.filter((m) => m.event !== undefined && m.tool === undefined && !neverFired.has(m.event) && !skip(m));
}

/** Events whose native names are the engine's (Claude's copies); `renamed` maps the others. */
export function sameNames(names: readonly string[], renamed: Readonly<Record<string, EventName>> = {}): EventMapping[] {
  return names.map((native) => {
    const event = renamed[native] ?? (isEventName(native) ? native : undefined);
    return event ? { native, event } : { native };
  });
}

/** One matcher group that runs the command for every call of the event (Claude's shape, and its copies'). */
export function commandGroup(command: string): Record<string, unknown> {
  return { hooks: [{ type: 'command', command }] };
}

/** A Claude-shaped settings file in `<dir>/<file>` of the home (user) or the project. */
export function claudeShaped(title: string, dir: string, events: readonly EventMapping[], file = 'settings.json'): InstallSpec {
  return {
    title,
    format: 'json',
    target: (scope: InstallScope, ctx: LocationContext) => join(scope === 'user' ? ctx.homeDir : ctx.projectDir, dir, file),
    events,
    entry: commandGroup,
    blocksBy: 'exit2',
  };
}

/**
 * Claude Code: the native dialect. settings.json family (`hooks.{Event}[] = {matcher, hooks}`),
 * plugin hooks/hooks.json. Canonical shapes, so every mapping is the identity.
 * Reader: src/config/readers/claude.ts; wire: src/dispatch/wire/claude.ts.
 */
import { join } from 'node:path';
import { EVENT_NAMES, type EventName } from '../events/facts.js';
import { isObject } from './shared.js';
import type { Dialect } from './types.js';

/** The catalog's event names, from its zod-free facts (this module stays free of zod: dispatch's fast path). */
export const CANONICAL_EVENTS: readonly EventName[] = EVENT_NAMES;
const CANONICAL = new Set<string>(CANONICAL_EVENTS);

/** Native event names with at least one hook entry in a Claude-shaped `hooks` object. */
export function groupEvents(hooks: unknown): string[] {
  if (!isObject(hooks)) return [];
  return Object.keys(hooks).filter((k) => Array.isArray(hooks[k]) && (hooks[k] as unknown[]).length > 0);
}

export const claude: Dialect = {
  name: 'claude',
  title: 'Claude Code',
  format: 'json',
  configLocations: ({ projectDir, homeDir }) => [
    { kind: 'user', file: join(homeDir, '.claude', 'settings.json') },
    { kind: 'project', file: join(projectDir, '.claude', 'settings.json') },
    { kind: 'local', file: join(projectDir, '.claude', 'settings.local.json') },
  ],
  locations: {
    user: ['~/.claude/settings.json'],
    project: ['.claude/settings.json', '.claude/settings.local.json', '<plugin>/hooks/hooks.json'],
  },
  defaults: { timeoutUnit: 's' },
  events: CANONICAL_EVENTS.map((e) => ({ native: e, event: e })),
  tools: [],
  matcherMode: () => 'claude',
  detect(file, doc) {
    if (!isObject(doc)) return 0;
    const events = groupEvents(doc.hooks);
    if (!isObject(doc.hooks)) return /(^|[\\/])\.claude[\\/]/.test(file) ? 0.6 : 0.05;
    let score = events.length === 0 || events.every((e) => CANONICAL.has(e)) ? 0.5 : 0.2;
    if (/(^|[\\/])\.claude[\\/]|settings(\.local)?\.json$|managed-settings\.json$/.test(file)) score += 0.3;
    return score;
  },
  configuredEvents: (doc) => (isObject(doc) ? groupEvents(doc.hooks) : []),
};

/**
 * Claude Code: the native dialect. settings.json family (`hooks.{Event}[] = {matcher, hooks}`),
 * plugin hooks/hooks.json. Canonical shapes, so every mapping is the identity.
 * Reader: reader.ts; wire: wire.ts; detection: detect.ts (this folder).
 */
import { join } from 'node:path';
import { EVENT_NAMES, type EventName } from '../../events/facts.js';
import { isObject } from '../../util/is-object.js';
import type { Dialect } from '../types.js';
import { groupEvents } from '../shared/detect.js';
import { detectClaude } from '../detectors.js';

/** The catalog's event names, from its zod-free facts (this module stays free of zod: dispatch's fast path). */
export const CANONICAL_EVENTS: readonly EventName[] = EVENT_NAMES;

export { groupEvents };

export const claude: Dialect = {
  name: 'claude',
  title: 'Claude Code',
  format: 'json',
  projectDirEnv: ['CLAUDE_PROJECT_DIR'],
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
  detect: detectClaude,
  configuredEvents: (doc) => (isObject(doc) ? groupEvents(doc.hooks) : []),
};

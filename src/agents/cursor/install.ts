/** `agent-hooks install --agent cursor`: `.cursor/hooks.json` of the project, or `~/.cursor/hooks.json`. */
import { join } from 'node:path';
import { deliveredEvents } from '../shared/install.js';
import type { InstallSpec } from '../types.js';
import { cursor } from './facts.js';

export const cursorInstall: InstallSpec = {
  title: 'Cursor',
  format: 'json',
  target: (scope, { projectDir, homeDir }) => join(scope === 'user' ? homeDir : projectDir, '.cursor', 'hooks.json'),
  events: deliveredEvents(cursor),
  entry: (command) => ({ command }),
  base: { version: 1 },
  blocksBy: 'exit2',
};

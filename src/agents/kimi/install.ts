/** `agent-hooks install --agent kimi`: `[[hooks]]` tables appended to `$KIMI_CODE_HOME/config.toml` (~/.kimi-code). */
import { join, resolve } from 'node:path';
import { deliveredEvents } from '../shared/install.js';
import type { InstallSpec } from '../types.js';
import { kimi } from './facts.js';

export const kimiInstall: InstallSpec = {
  title: 'Kimi Code',
  format: 'toml',
  target: (scope, { homeDir, env }) =>
    scope === 'user'
      ? join(env.KIMI_CODE_HOME ? resolve(env.KIMI_CODE_HOME) : join(homeDir, '.kimi-code'), 'config.toml')
      : { unsupported: 'Kimi Code reads hooks only from its home (config.toml): use --scope user' },
  events: deliveredEvents(kimi),
  blocksBy: 'exit2',
};

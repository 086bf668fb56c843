/**
 * Cline (other-agents.md A.1): one executable per event, named after it, in `.clinerules/hooks/`
 * of the project or `$CLINE_DIR/hooks/` (~/.cline/hooks/). Cline does not read exit codes: a
 * hook that cannot start dispatch blocks with its JSON `cancel`.
 */
import { join, resolve } from 'node:path';
import { sameNames } from '../shared/install.js';
import type { InstallSpec } from '../types.js';

export const clineInstall: InstallSpec = {
  title: 'Cline',
  format: 'hooks-dir',
  target: (scope, { projectDir, homeDir, env }) =>
    scope === 'user'
      ? join(env.CLINE_DIR ? resolve(env.CLINE_DIR) : join(homeDir, '.cline'), 'hooks')
      : join(projectDir, '.clinerules', 'hooks'),
  events: sameNames([
    'PreToolUse',
    'PostToolUse',
    'UserPromptSubmit',
    'TaskStart',
    'TaskResume',
    'TaskComplete',
    'TaskError',
    'TaskCancel',
    'SessionShutdown',
  ]),
  blocksBy: 'cancel-json',
};

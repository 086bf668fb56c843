/** Letta Code (other-agents.md A.6): Claude-shaped `.letta/settings.json`, or `~/.letta/settings.json`. */
import { claudeShaped, sameNames } from '../shared/install.js';

export const lettaInstall = claudeShaped(
  'Letta Code',
  '.letta',
  sameNames([
    'PreToolUse',
    'PostToolUse',
    'PostToolUseFailure',
    'PermissionRequest',
    'UserPromptSubmit',
    'Notification',
    'Stop',
    'SubagentStop',
    'PreCompact',
    'SessionStart',
    'SessionEnd',
  ]),
);

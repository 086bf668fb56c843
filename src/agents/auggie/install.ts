/** Auggie (other-agents.md A.5): Claude-shaped `.augment/settings.json`, or `~/.augment/settings.json`; PromptSubmit is its UserPromptSubmit. */
import { claudeShaped, sameNames } from '../shared/install.js';

export const auggieInstall = claudeShaped(
  'Auggie',
  '.augment',
  sameNames(['PreToolUse', 'PostToolUse', 'Stop', 'SessionStart', 'SessionEnd', 'Notification', 'PromptSubmit'], {
    PromptSubmit: 'UserPromptSubmit',
  }),
);

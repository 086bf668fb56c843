/** `agent-hooks install --agent claude`: `.claude/settings.json` of the project, or `~/.claude/settings.json`. */
import { EVENT_FACTS, EVENT_NAMES } from '../../events/facts.js';
import { claudeShaped, sameNames } from '../shared/install.js';

// Claude Code's own events only: the catalog's extras (Kimi's, the seeds') are not keys its settings know.
export const claudeInstall = claudeShaped(
  'Claude Code',
  '.claude',
  sameNames(EVENT_NAMES.filter((e) => EVENT_FACTS[e].origin === 'claude')),
);

/** Letta Code (other-agents.md A.6): Claude-shaped `.letta/settings.json`, or `~/.letta/settings.json`. */
import { claudeShaped, sameNames } from '../shared/install.js';
import { LETTA_EVENTS } from './facts.js';

export const lettaInstall = claudeShaped('Letta Code', '.letta', sameNames(LETTA_EVENTS));

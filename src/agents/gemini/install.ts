/** `agent-hooks install --agent gemini`: `.gemini/settings.json` of the project, or `~/.gemini/settings.json`. */
import { claudeShaped, deliveredEvents } from '../shared/install.js';
import { gemini } from './facts.js';

export const geminiInstall = claudeShaped('Gemini CLI', '.gemini', deliveredEvents(gemini));

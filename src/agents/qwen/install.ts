/** `agent-hooks install --agent qwen`: `.qwen/settings.json` of the project, or `~/.qwen/settings.json`. */
import { claudeShaped, deliveredEvents } from '../shared/install.js';
import { qwen } from './facts.js';

export const qwenInstall = claudeShaped('Qwen Code', '.qwen', deliveredEvents(qwen));

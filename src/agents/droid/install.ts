/** `agent-hooks install --agent droid`: `.factory/settings.json` of the project, or `~/.factory/settings.json`. */
import { claudeShaped, deliveredEvents } from '../shared/install.js';
import { droid } from './facts.js';

export const droidInstall = claudeShaped('Factory Droid', '.factory', deliveredEvents(droid));

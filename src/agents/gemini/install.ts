/** `agent-hooks install --agent gemini`: `.gemini/settings.json` of the project, or `~/.gemini/settings.json`. */
import { claudeShaped, deliveredEvents } from '../shared/install.js';
import type { InstallSpec } from '../types.js';
import { gemini } from './facts.js';

export const geminiInstall: InstallSpec = {
  ...claudeShaped('Gemini CLI', '.gemini', deliveredEvents(gemini)),
  // The suite runs it with GEMINI_CLI_TRUST_WORKSPACE=true (test/agents/harness/gemini.ts).
  projectNote:
    "with folder trust on, Gemini CLI reads a project's .gemini/settings.json only in a trusted folder: trust this one when it asks",
};

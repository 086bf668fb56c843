import { agentMatrix } from './harness/matrix.js';
import { opencode } from './harness/opencode.js';

agentMatrix(opencode);

import { letta } from './harness/letta.js';
import { agentMatrix } from './harness/matrix.js';

agentMatrix(letta);

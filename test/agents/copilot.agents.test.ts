import { copilot } from './harness/copilot.js';
import { agentMatrix } from './harness/matrix.js';

agentMatrix(copilot);

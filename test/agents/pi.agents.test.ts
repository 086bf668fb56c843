import { agentMatrix } from './harness/matrix.js';
import { pi } from './harness/pi.js';

agentMatrix(pi);

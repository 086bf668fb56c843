import { auggie } from './harness/auggie.js';
import { agentMatrix } from './harness/matrix.js';

agentMatrix(auggie);

import { claude } from './harness/claude.js';
import { agentMatrix } from './harness/matrix.js';

agentMatrix(claude);

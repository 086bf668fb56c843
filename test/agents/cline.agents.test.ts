import { cline } from './harness/cline.js';
import { agentMatrix } from './harness/matrix.js';

agentMatrix(cline);

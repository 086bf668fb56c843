import { kilo } from './harness/kilo.js';
import { agentMatrix } from './harness/matrix.js';

agentMatrix(kilo);

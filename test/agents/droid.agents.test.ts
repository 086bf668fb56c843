import { droid } from './harness/droid.js';
import { agentMatrix } from './harness/matrix.js';

agentMatrix(droid);

import { codex } from './harness/codex.js';
import { agentMatrix } from './harness/matrix.js';

agentMatrix(codex);

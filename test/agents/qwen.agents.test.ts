import { qwen } from './harness/qwen.js';
import { agentMatrix } from './harness/matrix.js';

agentMatrix(qwen);

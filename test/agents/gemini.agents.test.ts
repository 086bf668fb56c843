import { gemini } from './harness/gemini.js';
import { agentMatrix } from './harness/matrix.js';

agentMatrix(gemini);

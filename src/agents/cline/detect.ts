/** Cline has no hooks file (one executable per event in a hooks directory): no document is Cline's. */
import type { Detector } from '../types.js';

export const detectCline: Detector = () => 0;

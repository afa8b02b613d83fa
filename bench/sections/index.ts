/** The bench sections, in the order `npm run bench` runs them. Each lives in its own file. */
import type { BenchSection } from '../lib/types';
import { scaleSection } from './scale';

export const SECTIONS: BenchSection[] = [
  scaleSection,
];

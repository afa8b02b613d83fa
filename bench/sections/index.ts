/** The bench sections, in the order `npm run bench` runs them. Each lives in its own file. */
import type { BenchSection } from '../lib/types';
import { frontierSection } from './frontier';

export const SECTIONS: BenchSection[] = [frontierSection];

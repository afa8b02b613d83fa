/** The bench sections, in the order `npm run bench` runs them. Each lives in its own file. */
import type { BenchSection } from '../lib/types';
import { crawlersSection } from './crawlers';
import { exportsSection } from './exports';
import { fidelitySection } from './fidelity';
import { frontierSection } from './frontier';
import { robotsSection } from './robots';
import { scaleSection } from './scale';
import { simulationSection } from './simulation';
import { sitemapsSection } from './sitemaps';

export const SECTIONS: BenchSection[] = [
  crawlersSection,
  robotsSection,
  frontierSection,
  simulationSection,
  scaleSection,
  sitemapsSection,
  exportsSection,
  fidelitySection,
];

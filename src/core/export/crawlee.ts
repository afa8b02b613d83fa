/**
 * The Crawlee export (Crawlee 3 from npm): crawl.mjs (a header of comments, then the same code for every
 * plan, crawleeCode.ts), plan.json, the seed lists and a package.json, so that `npm install && node crawl.mjs`
 * in the folder runs the plan.
 */
import { VERSION } from '../identity';
import { CRAWL_MJS_BODY } from './crawleeCode';
import { differencesBlock } from './differences';
import { seedFiles, type ExportShards } from './hosts';
import { asciiJson, commentBlock } from './literals';
import { planDataFile, type PlanData } from './planData';
import type { ExportFile } from './types';

/**
 * The Crawlee release the export was proven with (`npm run test:frameworks`); the generated package.json
 * asks for it or a later 3.x. The bench installs exactly this one (bench/peers/crawlee/package.json; a test
 * keeps the two equal).
 */
export const CRAWLEE_VERSION = '3.18.1';

function crawlMjs(data: PlanData, differences: readonly string[]): string {
  const run = data.machines > 1 ? 'node crawl.mjs --machine K (one process per machine)' : 'node crawl.mjs';
  const header = [
    `A crawl plan as a Crawlee crawl, exported by crawl-planner ${VERSION} (docs/exports.md).`,
    `Run it with \`npm install\` once, then \`${run}\` in this folder; \`--max-pages N\` stops after N pages.`,
    "The plan is data (plan.json): each host's interval, pages and machine. The code below is the same for every plan.",
    '',
    ...differencesBlock('crawlee', differences),
  ];
  return commentBlock(header, 'js') + CRAWL_MJS_BODY;
}

function packageJson(): string {
  return (
    asciiJson({
      name: 'crawl-plan',
      private: true,
      description: 'A crawl plan exported by crawl-planner export --format crawlee',
      type: 'module',
      scripts: { crawl: 'node crawl.mjs' },
      dependencies: { crawlee: `^${CRAWLEE_VERSION}` },
    }) + '\n'
  );
}

export function crawleeFiles(shards: ExportShards, data: PlanData, differences: readonly string[]): ExportFile[] {
  return [
    { path: 'crawl.mjs', content: crawlMjs(data, differences) },
    { path: 'plan.json', content: planDataFile(data) },
    { path: 'package.json', content: packageJson() },
    ...seedFiles(shards),
  ];
}

export function crawleeHowToRun(machines: number): string {
  return machines > 1
    ? `Run: cd into the folder, \`npm install\` (Crawlee ${CRAWLEE_VERSION} or a later 3.x), then on machine K \`node crawl.mjs --machine K\`; \`--max-pages N\` stops after N pages.`
    : `Run: cd into the folder, \`npm install\` (Crawlee ${CRAWLEE_VERSION} or a later 3.x), then \`node crawl.mjs\`; \`--max-pages N\` stops after N pages.`;
}

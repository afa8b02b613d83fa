/**
 * `crawl-planner`: the command-line tool on the same engine as the extension.
 *
 * Each command's module is loaded only when that command runs (LOADERS), so a command does not pay at
 * start-up for what it never uses: the crawl engine and the demo hosts load for `crawl` and `demo` only,
 * and undici (src/net/http.ts) only when a request is about to be sent. esbuild keeps one bundle: it turns
 * each `import()` into a lazily initialised module inside dist/cli.js (see esbuild.js for why one file).
 */
import { VERSION } from '../core/identity';
import { EXIT_USAGE, UsageError, type Io } from './args';

type Command = (argv: string[], io: Io) => Promise<number>;

/** Each command's module, loaded when the command runs (each literal `import()` is a lazy module of the bundle). */
const LOADERS = {
  estimate: async () => (await import('./estimate.js')).runEstimate,
  export: async () => (await import('./export.js')).runExport,
  robots: async () => (await import('./robots.js')).runRobots,
  sitemaps: async () => (await import('./sitemaps.js')).runSitemaps,
  crawl: async () => (await import('./crawl.js')).runCrawlCommand,
  demo: async () => (await import('./demo.js')).runDemo,
} satisfies Record<string, () => Promise<Command>>;

type CommandName = keyof typeof LOADERS;

/** Each command in a line of the usage, in this order. */
const SUMMARIES: Record<CommandName, string> = {
  estimate: 'how long a crawl takes, per host and in total, and what limits it',
  export: 'the plan as a Scrapy project, a Crawlee script, or Nutch or StormCrawler settings',
  robots: 'what robots.txt says about URLs: outcome, Crawl-delay, verdict and deciding line',
  sitemaps: 'how many pages each host publishes in its sitemaps, and when they changed',
  crawl: 'a small, polite test crawl with live output and a report',
  demo: 'plan and crawl the built-in loopback demo hosts (no network)',
};

function usage(): string {
  const lines = ['Usage: crawl-planner <command> [options]', '', 'Commands:'];
  for (const [name, summary] of Object.entries(SUMMARIES)) lines.push(`  ${name.padEnd(10)} ${summary}`);
  lines.push('', 'Run "crawl-planner <command> --help" for its options.');
  return lines.join('\n');
}

export async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage() + '\n');
    return name === undefined ? EXIT_USAGE : 0;
  }
  if (name === '--version') {
    io.out(`${VERSION}\n`);
    return 0;
  }
  if (!Object.hasOwn(LOADERS, name)) {
    io.err(`crawl-planner: unknown command "${name}"\n${usage()}\n`);
    return EXIT_USAGE;
  }
  try {
    const run = await LOADERS[name as CommandName]();
    return await run(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`crawl-planner ${name}: ${err.message}\n`);
      return EXIT_USAGE;
    }
    io.err(`crawl-planner ${name}: ${(err as Error).message ?? String(err)}\n`);
    return 1;
  }
}

if (require.main === module) {
  const io: Io = {
    out: (t) => process.stdout.write(t),
    drain: () => new Promise((resolve) => process.stdout.once('drain', resolve)),
    err: (t) => process.stderr.write(t),
    color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
  };
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`crawl-planner: ${(err as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}

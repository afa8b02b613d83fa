/**
 * The built-in demo hosts inside VS Code: at most one set per window, owned by this service. It starts
 * them on first use (the demo module is loaded only then), keeps the `demoHostsRunning` context key in
 * step, and stops them when asked or when the extension is deactivated.
 *
 * They listen on loopback only, so they are allowed in Restricted Mode too.
 */
import * as vscode from 'vscode';
import type { DemoHostInfo, DemoHosts } from '../../demo';
import { CONTEXT_KEYS } from '../ids';
import { errorMessage, type Log } from '../log';

/** What commands and the task provider see of a demo host. */
export interface DemoHostSummary {
  name: string;
  origin: string;
  baseUrl: string;
  seeds: string[];
  description: string;
}

export interface DemoHostsDeps {
  log: Log;
}

export class DemoHostsService implements vscode.Disposable {
  private running: DemoHosts | undefined;
  private starting: Promise<DemoHosts> | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly deps: DemoHostsDeps) {}

  /** The running hosts, or undefined. */
  get hosts(): DemoHostSummary[] | undefined {
    return this.running?.hosts.map(summary);
  }

  /** Every seed URL of the running hosts ([] when none run). */
  get seeds(): string[] {
    return this.running?.hosts.flatMap((h) => h.seeds) ?? [];
  }

  /** The listing `crawl-planner demo --serve` prints, for the running hosts. */
  async listing(): Promise<string | undefined> {
    if (!this.running) return undefined;
    const { formatDemoHosts } = await import('../../demo/index.js');
    return formatDemoHosts(this.running);
  }

  /** Starts the hosts, or returns the running ones. */
  async start(): Promise<{ hosts: DemoHostSummary[]; started: boolean }> {
    if (this.running) return { hosts: this.hosts!, started: false };
    this.starting ??= this.launch().finally(() => {
      this.starting = undefined;
    });
    const running = await this.starting;
    return { hosts: running.hosts.map(summary), started: true };
  }

  private async launch(): Promise<DemoHosts> {
    const demo = await import('../../demo/index.js');
    let hosts: DemoHosts;
    try {
      // The port `crawl-planner demo --serve` uses, so the URLs stay the same between sessions…
      hosts = await demo.startDemoHosts({ ...demo.defaultDemoConfig(), basePort: demo.DEMO_SERVE_PORT });
    } catch (err) {
      // …unless it is taken (e.g. by the CLI's demo): then any free port.
      this.deps.log.info(
        `Demo hosts: port ${demo.DEMO_SERVE_PORT} is not free (${errorMessage(err)}); using ephemeral ports`,
      );
      hosts = await demo.startDemoHosts({ ...demo.defaultDemoConfig(), basePort: 0 });
    }
    this.running = hosts;
    this.deps.log.info(`Demo hosts started (${hosts.addressing} addressing):\n${demo.formatDemoHosts(hosts)}`);
    this.update();
    return hosts;
  }

  /** Stops the hosts; false when none were running. */
  async stop(): Promise<boolean> {
    const running = this.running ?? (this.starting ? await this.starting.catch(() => undefined) : undefined);
    if (!running) return false;
    this.running = undefined;
    this.update();
    await running.close();
    this.deps.log.info('Demo hosts stopped');
    return true;
  }

  private update(): void {
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.demoHostsRunning, this.running !== undefined);
    this.changed.fire();
  }

  dispose(): void {
    // close() ends every socket right away; the promise only says when they are all gone.
    void this.stop().catch((err: unknown) => this.deps.log.warn(`Demo hosts: stopping failed: ${errorMessage(err)}`));
    this.changed.dispose();
  }
}

function summary(h: DemoHostInfo): DemoHostSummary {
  return { name: h.name, origin: h.origin, baseUrl: h.baseUrl, seeds: [...h.seeds], description: h.description };
}

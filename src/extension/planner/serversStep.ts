/**
 * The planner's "Check shared servers" step (docs/extension.md#shared-servers): the seed hosts looked up through
 * the injected `lookUpAddresses` (`crawlPlanner.resolve` first, then DNS with a bound per host), whose addresses
 * feed the plan's shared-address findings and the `ip` politeness unit. Off (the default), nothing is looked up
 * and the plan stays offline. Each host is looked up once while the step is on; seeds added later are looked up
 * when the plan is next made; a change of `crawlPlanner.resolve`, trust, or turning the step on again looks every
 * host up again. A newer check supersedes the one running (aborted, its result dropped); Cancel and turning the
 * step off do too.
 */
import type { PlanInput } from '../../core/plan';
import { formatNumber } from '../../core/format/duration';
import type { ServersState } from '../../shared/planner/viewModel';
import { CancellableRun, started } from './cancellableRun';
import type { StepHost } from './deps';
import { errorText } from './deliver';

/** Progress messages per check at most (a check of 10,000 hosts says how far it is, not after every host). */
const PROGRESS_MESSAGES = 20;

type Found = { addresses: string[] } | { error: string };

export class ServersStep {
  private servers: ServersState = { state: 'off' };
  /** What each host looked up gave (kept while the step is on and the settings stay). */
  private readonly found = new Map<string, Found>();
  /** Hosts a check was started for (a cancelled or failed one too): not looked up again by themselves. */
  private readonly tried = new Set<string>();
  private settingProblems: string[] = [];
  /** The settings the hosts were looked up with (deps.addressSettings). */
  private lookedUpWith: string | undefined;
  private readonly run = new CancellableRun();

  constructor(private readonly host: StepHost) {}

  /** Where the step stands, as the webview is sent it. */
  get state(): ServersState {
    return this.servers;
  }

  /**
   * What the plan takes for `hosts` (the seed hosts): the addresses of those looked up and why the others have
   * none; undefined while the step is off or nothing has been looked up (the plan then says it did not check).
   */
  planAddresses(hosts: readonly string[]): Pick<PlanInput, 'addressesByHost' | 'unresolvedHosts'> | undefined {
    if (!this.host.form().checkServers || this.found.size === 0) return undefined;
    const addressesByHost: Record<string, string[]> = {};
    const unresolvedHosts: Record<string, string> = {};
    for (const h of hosts) {
      const f = this.found.get(h);
      if (f === undefined) unresolvedHosts[h] = this.run.running ? 'being looked up' : 'not looked up';
      else if ('addresses' in f) addressesByHost[h] = f.addresses;
      else unresolvedHosts[h] = f.error;
    }
    return { addressesByHost, unresolvedHosts };
  }

  /** The plan was made for `hosts`: with the step on, hosts never tried are looked up (after this turn). */
  planned(hosts: readonly string[]): void {
    if (!this.host.form().checkServers || this.run.running || this.servers.state === 'error') return;
    if (hosts.some((h) => !this.tried.has(h))) queueMicrotask(() => this.startMissing());
  }

  /** The webview is (re)loaded: with the step on and nothing checked yet, checks. */
  ready(): void {
    if (this.host.form().checkServers && this.servers.state === 'off') this.start();
  }

  /** Looks every seed host up again (turned on, a settings change); the check running is superseded. */
  start(): void {
    this.found.clear();
    this.tried.clear();
    this.lookUp(this.host.current().seeds.hosts);
  }

  /**
   * A setting or trust changed: with the step on, every host is looked up again when `crawlPlanner.resolve`
   * changed or the last check could not run (an untrusted workspace now trusted); other settings change nothing here.
   */
  settingsChanged(): void {
    if (!this.host.form().checkServers) return;
    const now = this.host.deps.addressSettings?.();
    if (this.servers.state === 'error' || this.servers.state === 'off' || now !== this.lookedUpWith) this.start();
  }

  /** Cancel: the check running stops; what was looked up before stays. */
  cancel(): void {
    if (!this.run.cancel()) return;
    this.failed('Stopped: the hosts not looked up yet are planned as if on servers of their own.');
  }

  /** "Check shared servers" turned off: the check running is stopped and the plan no longer takes addresses. */
  stop(): void {
    this.run.cancel();
    this.found.clear();
    this.tried.clear();
    this.servers = { state: 'off' };
    this.host.invalidate();
  }

  dispose(): void {
    this.run.dispose();
  }

  private startMissing(): void {
    if (this.host.isDisposed() || !this.host.form().checkServers || this.run.running) return;
    const missing = this.host.current().seeds.hosts.filter((h) => !this.tried.has(h));
    if (missing.length > 0) this.lookUp(missing);
  }

  private lookUp(hosts: readonly string[]): void {
    this.run.cancel();
    const lookUpAddresses = this.host.deps.lookUpAddresses;
    if (lookUpAddresses === undefined) return this.failed('Checking shared servers is not available here.');
    if (!this.host.deps.isTrusted())
      return this.failed('Seed hosts are looked up only in a trusted workspace. Trust this workspace to check.');
    if (hosts.length === 0) return this.failed('No valid seed URL whose host to look up.');
    const run = this.run.start();
    this.lookedUpWith = this.host.deps.addressSettings?.();
    for (const h of hosts) this.tried.add(h);
    const total = hosts.length;
    const every = Math.max(1, Math.ceil(total / PROGRESS_MESSAGES));
    this.servers = { state: 'loading', hosts: total, done: 0 };
    this.host.send({ type: 'serversState', servers: this.servers });
    started(() =>
      lookUpAddresses([...hosts], {
        signal: run.signal,
        onProgress: (done, of) => {
          if (!run.current || (done % every !== 0 && done !== of)) return;
          this.servers = { state: 'loading', hosts: of, done };
          this.host.send({ type: 'serversState', servers: this.servers });
        },
      }),
    ).then(
      ({ addresses, settingProblems }) => {
        if (!run.finish() || this.host.isDisposed()) return;
        for (const [h, a] of Object.entries(addresses.addressesByHost)) this.found.set(h, { addresses: [...a] });
        for (const [h, why] of Object.entries(addresses.unresolvedHosts)) this.found.set(h, { error: why });
        this.settingProblems = settingProblems;
        for (const problem of settingProblems) this.host.log(`Settings: ${problem}`);
        let resolved = 0;
        for (const f of this.found.values()) if ('addresses' in f) resolved++;
        this.servers = {
          state: 'done',
          hosts: this.found.size,
          resolved,
          settingProblems: this.settingProblems.slice(0, 10),
        };
        this.host.log(`shared servers: ${formatNumber(resolved)} of ${formatNumber(this.found.size)} hosts resolved`);
        this.host.invalidate();
        this.host.send({ type: 'serversState', servers: this.servers });
        this.host.postPlan();
      },
      (err: unknown) => {
        if (!run.finish() || this.host.isDisposed()) return;
        this.host.log(`shared servers check failed: ${errorText(err)}`);
        this.failed(`Could not look the seed hosts up: ${errorText(err)}`);
      },
    );
  }

  private failed(message: string): void {
    this.servers = { state: 'error', message };
    this.host.invalidate();
    this.host.send({ type: 'serversState', servers: this.servers });
    this.host.postPlan();
  }
}

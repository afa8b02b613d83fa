/**
 * What a crawl counts as it runs, over all hosts and per host (requests started and their start times,
 * pages, retries, errors, robots.txt skips, statuses, Retry-After values, why a host was dropped), the
 * recent page rate for the progress event, and the summary built from them at the end. The scheduler's
 * parts (engine.ts wires them) decide what happened; this only keeps count.
 */
import { noteTransfer } from './transfer';
import type { IntervalDecision } from '../politeness/interval';
import type {
  CrawlSummary,
  HostBlocking,
  HostDroppedEvent,
  HostSummary,
  LiveIntervalSource,
  NotFollowed,
  TransferTotals,
  UnitSummary,
} from './events';

export interface HostStats {
  /** When each request to the host started (for the achieved intervals). */
  starts: number[];
  requests: number;
  pages: number;
  retries: number;
  robotsSkips: number;
  errors: number;
  retryAfterSeen: string[];
  /** Failed attempts (errors, 429, 5xx) in a row; a success resets it. */
  consecutiveFailures: number;
  dropReason?: HostDroppedEvent['reason'];
  /** `reason: detail`, once the host is dropped. */
  dropped?: string;
  /** Its blocking signals (blockWatch.ts), once there is one. */
  blocking?: HostBlocking;
}

/** The window for the progress event's rate. */
const PROGRESS_WINDOW_MS = 30_000;

export class CrawlStats {
  /** Final pages (URLs that ended `fetched`). */
  pages = 0;
  /** URLs left unstarted because the page budget was spent (the run then ends as `max-pages`). */
  notStartedByMaxPages = 0;
  private requests = 0;
  private retries = 0;
  private errors = 0;
  private robotsSkips = 0;
  /** Responses per status, in the order first seen (the summary's object orders them by status anyway). */
  private readonly statusCounts = new Map<number, number>();
  private readonly retryAfterSeen: string[] = [];
  private readonly transferred: TransferTotals = { bytes: 0, wireBytes: 0, wireBytesUnknown: 0 };
  /** When recent pages ended, for the rate: those from `pageTimesHead` on are in the window. */
  private pageTimes: number[] = [];
  private pageTimesHead = 0;
  private readonly byHost = new Map<string, HostStats>();

  constructor(private readonly startedAt: number) {}

  addHost(host: string): void {
    this.byHost.set(host, {
      starts: [],
      requests: 0,
      pages: 0,
      retries: 0,
      robotsSkips: 0,
      errors: 0,
      retryAfterSeen: [],
      consecutiveFailures: 0,
    });
  }

  host(host: string): HostStats {
    return this.byHost.get(host)!;
  }

  /** A request to `host` started at `at`. */
  started(host: string, at: number): void {
    const st = this.host(host);
    st.requests++;
    st.starts.push(at);
    this.requests++;
  }

  status(status: number): void {
    this.statusCounts.set(status, (this.statusCounts.get(status) ?? 0) + 1);
  }

  /** A response's body: its decoded bytes and, when the fetcher knows, its bytes on the wire. */
  transfer(bytes: number, wireBytes: number | undefined, url: string): void {
    noteTransfer(this.transferred, bytes, wireBytes, url);
  }

  error(host: string): void {
    this.host(host).errors++;
    this.errors++;
  }

  retry(host: string): void {
    this.host(host).retries++;
    this.retries++;
  }

  robotsSkip(host: string): void {
    this.host(host).robotsSkips++;
    this.robotsSkips++;
  }

  retryAfter(host: string, raw: string): void {
    this.host(host).retryAfterSeen.push(raw);
    this.retryAfterSeen.push(raw);
  }

  page(host: string, at: number): void {
    this.pages++;
    this.host(host).pages++;
    this.pageTimes.push(at);
    // Times leave the window as pages come, so the list holds about one window's worth.
    this.trimPageTimes(at);
  }

  /** Pages per second over the last 30 s (or since the start, when shorter). */
  pageRate(now: number): number {
    this.trimPageTimes(now);
    const span = Math.min(PROGRESS_WINDOW_MS, now - this.startedAt) / 1000;
    return span > 0 ? (this.pageTimes.length - this.pageTimesHead) / span : 0;
  }

  /** Drops the times before `now`'s window (in place: no shift per time). */
  private trimPageTimes(now: number): void {
    const times = this.pageTimes;
    let head = this.pageTimesHead;
    while (head < times.length && times[head]! < now - PROGRESS_WINDOW_MS) head++;
    if (head > 1024 && head * 2 > times.length) {
      this.pageTimes = times.slice(head);
      head = 0;
    }
    this.pageTimesHead = head;
  }

  /**
   * The crawl's summary at `now`: each host's figures (in `hosts` order, with its planned interval and, when it
   * shares one, its unit), each unit of two or more hosts (`units`), and the totals.
   */
  summary(
    now: number,
    hosts: Iterable<{ name: string; planned: Pick<IntervalDecision, 'seconds' | 'source'>; unit?: string }>,
    end: {
      stopped: boolean;
      plannedSeconds: number | undefined;
      notFollowed: NotFollowed[];
      units?: Iterable<{
        name: string;
        hosts: readonly string[];
        planned: { seconds: number; source: LiveIntervalSource };
      }>;
    },
  ): CrawlSummary {
    const perHost: HostSummary[] = [];
    for (const { name, planned, unit } of hosts) {
      const st = this.host(name);
      perHost.push({
        host: name,
        requests: st.requests,
        pages: st.pages,
        ...gapsOf(st.starts),
        plannedIntervalSeconds: planned.seconds,
        intervalSource: planned.source,
        retryAfterSeen: [...st.retryAfterSeen],
        retries: st.retries,
        robotsSkips: st.robotsSkips,
        errors: st.errors,
        ...(st.dropped === undefined ? {} : { dropped: st.dropped }),
        ...(st.blocking === undefined ? {} : { blocking: { ...st.blocking } }),
        ...(unit === undefined ? {} : { unit }),
      });
    }
    const units: UnitSummary[] = [];
    for (const unit of end.units ?? []) {
      // The members' starts, each list in time order, merged: the gaps the unit's interval keeps.
      const starts = unit.hosts.flatMap((h) => this.host(h).starts).sort((a, b) => a - b);
      units.push({
        unit: unit.name,
        hosts: [...unit.hosts],
        requests: starts.length,
        ...gapsOf(starts),
        plannedIntervalSeconds: unit.planned.seconds,
        intervalSource: unit.planned.source,
      });
    }
    let endReason: CrawlSummary['endReason'] = 'complete';
    if (end.stopped) endReason = 'stopped';
    else if (this.notStartedByMaxPages > 0) endReason = 'max-pages';
    else if (perHost.length > 0 && perHost.every((h) => h.dropped !== undefined)) endReason = 'hosts-dropped';
    return {
      startedAt: this.startedAt,
      endedAt: now,
      elapsedSeconds: (now - this.startedAt) / 1000,
      ...(end.plannedSeconds === undefined ? {} : { plannedSeconds: end.plannedSeconds }),
      pages: this.pages,
      requests: this.requests,
      statusCounts: Object.fromEntries([...this.statusCounts].map(([status, count]) => [String(status), count])),
      retries: this.retries,
      robotsSkips: this.robotsSkips,
      errors: this.errors,
      retryAfterSeen: [...this.retryAfterSeen],
      transferred: {
        ...this.transferred,
        ...(this.transferred.largest ? { largest: { ...this.transferred.largest } } : {}),
      },
      hosts: perHost,
      ...(units.length > 0 ? { units } : {}),
      notFollowed: end.notFollowed,
      endReason,
    };
  }
}

/** The least and mean gap between consecutive starts, in seconds (none with fewer than two); no list of gaps is made. */
function gapsOf(starts: readonly number[]): { minIntervalSeconds?: number; meanIntervalSeconds?: number } {
  let sum = 0;
  let min = Infinity;
  for (let i = 1; i < starts.length; i++) {
    const gap = (starts[i]! - starts[i - 1]!) / 1000;
    sum += gap;
    if (gap < min) min = gap;
  }
  const gaps = starts.length - 1;
  return gaps > 0 ? { minIntervalSeconds: min, meanIntervalSeconds: sum / gaps } : {};
}

/**
 * The robots.txt timeline: every URL is asked about before it is queued, and an origin's robots.txt is a
 * request on its host's timeline like any other: the URL that meets it first carries it through the
 * host's queue (checkRobots, startRobots). `robotsDecided` is the one place a decision takes effect: the
 * host's Crawl-delay, the host dropped, the URL disallowed or queued.
 */
import { errorMessage } from '../format/text';
import { effectiveInterval } from '../politeness/interval';
import { crawlPart, type CrawlState, type UrlRecord } from './crawlState';
import type { DeferredWork } from './deferredWork';
import type { EventStream } from './eventStream';
import { intervalMs, type HostSlot } from './frontier';
import type { Outcomes } from './outcomes';
import type { StopAndFailure } from './stopAndFailure';
import type { RobotsDecision, RobotsFetch } from './types';
import type { WakeUps } from './wakeUps';

/** robots.txt's answer when there is no gate: everything is allowed. */
const ALLOWED: RobotsDecision = Object.freeze({ verdict: 'allowed' });

/** What the timeline works with, besides the crawl's state. */
export interface RobotsTimelineParts {
  events: EventStream;
  outcomes: Outcomes;
  deferred: DeferredWork;
  stops: StopAndFailure;
  wakeUps: WakeUps;
}

export class RobotsTimeline extends crawlPart<RobotsTimelineParts>() {
  private readonly checking: Set<UrlRecord>;
  private readonly controllers: Map<UrlRecord, AbortController>;
  /** Each origin's questions that wait for a turn, one after another: the last one's promise. */
  private readonly originChains = new Map<string, Promise<void>>();

  constructor(s: CrawlState, parts: RobotsTimelineParts) {
    super(s, parts);
    this.checking = s.checking;
    this.controllers = s.controllers;
  }

  /**
   * Asks robots.txt about the URL, then queues it (or records the skip). What the gate can answer from
   * what it holds (`peek`) is decided at once; otherwise the questions of one origin go one at a time, and
   * when the gate would have to fetch the origin's robots.txt, the URL first carries that request through
   * its host's queue (see startRobots), so robots.txt is a request on the host's timeline like any other.
   */
  checkRobots(rec: UrlRecord): void {
    rec.state = 'checking';
    const gate = this.o.robots;
    if (!gate) {
      this.robotsDecided(rec, ALLOWED);
      return;
    }
    if (gate.peek && (this.originChains.size === 0 || !this.originChains.has(rec.origin))) {
      const known = gate.peek(rec.url);
      if (known) {
        this.decideAtHand(rec, known);
        return;
      }
    }
    // The answer takes a turn (or a request): meanwhile the URL is being checked.
    this.checking.add(rec);
    const origin = rec.origin;
    const previous = this.originChains.get(origin) ?? Promise.resolve();
    const next = previous.then(async () => {
      // After a stop nothing more is asked (the URL ends as not started).
      if (rec.state !== 'checking' || this.s.fatal || this.s.stopping) return;
      if (gate.peek) {
        const known = gate.peek(rec.url);
        if (!known) {
          await this.carryRobots(rec);
          return;
        }
        this.decideAtHand(rec, known);
      } else {
        let decision: RobotsDecision;
        try {
          decision = await gate(rec.url, this.stops.robotsSignal());
        } catch (err) {
          decision = {
            verdict: 'disallowed',
            outcome: 'unreachable',
            detail: `robots.txt check failed: ${errorMessage(err)}`,
          };
        }
        if (rec.state !== 'checking' || this.s.fatal) return;
        this.decideAtHand(rec, decision);
      }
      this.outcomes.updateGate();
      this.wakeUps.wake();
    });
    const chain: Promise<void> = next.then(
      () => this.endChain(origin, chain),
      (err: unknown) => {
        this.endChain(origin, chain);
        this.stops.failCrawl(err);
      },
    );
    this.originChains.set(origin, chain);
  }

  /** Forgets an origin's chain once its last question is answered (later ones may then be decided at once). */
  private endChain(origin: string, chain: Promise<void>): void {
    if (this.originChains.get(origin) === chain) this.originChains.delete(origin);
  }

  /** A decision that took no request of this run (robots.txt at hand, or a gate without `peek`). */
  private decideAtHand(rec: UrlRecord, decision: RobotsDecision): void {
    const slot = this.frontier.get(rec.host)!;
    this.robotsDecided(rec, decision);
    if (decision.fetch && !slot.dropped) this.spaceAfterRobots(slot, decision.fetch);
  }

  /**
   * Puts the URL into its host's queue as the carrier of its origin's robots.txt request; resolves when
   * that request is decided, or the URL leaves the run first (then the origin's next URL carries it).
   */
  private carryRobots(rec: UrlRecord): Promise<void> {
    return new Promise<void>((release) => {
      this.checking.delete(rec);
      const slot = this.frontier.get(rec.host)!;
      rec.robotsRelease = release;
      if (slot.dropped) {
        this.outcomes.finalizeForDroppedHost(slot, rec);
        return;
      }
      rec.state = 'queued';
      this.frontier.enqueue(slot, rec, 'front');
      this.wakeUps.wake();
    });
  }

  /**
   * Keeps the host's next start at least its interval (Crawl-delay included) after a robots.txt request
   * that did not go through its queue: one fetched before this run (a cache) holds nothing back when it
   * is long past, and holds the first page back when it was a moment ago. Both readings.
   */
  private spaceAfterRobots(slot: HostSlot<UrlRecord>, fetch: RobotsFetch): void {
    const interval = intervalMs(slot.rate.intervalSeconds);
    let until = Math.max(fetch.sentAt ?? fetch.startedAt, fetch.startedAt) + interval;
    if (this.o.delayFrom === 'end') until = Math.max(until, fetch.endedAt + interval);
    if (until > this.clock.now()) this.frontier.pause(slot, until);
  }

  /**
   * robots.txt's decision about the URL takes effect: its host dropped (robots.txt unreachable, a
   * Crawl-delay above the cap), the host's Crawl-delay merged into its interval, then the URL disallowed,
   * or queued (a redirect target at the front of its host's queue, as it continues a started chain).
   */
  private robotsDecided(
    rec: UrlRecord,
    decision: RobotsDecision,
    where: 'front' | 'back' = rec.continuation ? 'front' : 'back',
  ): void {
    this.checking.delete(rec);
    const slot = this.frontier.get(rec.host)!;
    if (slot.dropped) {
      this.outcomes.finalizeForDroppedHost(slot, rec);
      return;
    }
    if (decision.outcome === 'unreachable') {
      this.outcomes.dropHost(
        slot,
        'robots-unreachable',
        decision.detail ?? `robots.txt of ${rec.origin} is unreachable`,
        rec,
      );
      return;
    }
    if (decision.crawlDelaySeconds !== undefined) {
      // The host's own Crawl-delay decides whether it is left out; its unit's interval takes the largest of its
      // members' (docs/how-it-works.md#politeness-units), so a member that is left out does not slow the others.
      const declared = Math.max(slot.crawlDelaySeconds ?? 0, decision.crawlDelaySeconds);
      slot.crawlDelaySeconds = declared;
      const plan = effectiveInterval({
        configuredSeconds: this.o.delaySeconds,
        crawlDelaySeconds: declared,
        crawlDelayPolicy: this.o.crawlDelayPolicy,
        maxCrawlDelaySeconds: this.o.maxCrawlDelaySeconds,
      });
      if (!plan.skipped || slot.unit.size === 1) slot.rate.mergeCrawlDelay(decision.crawlDelaySeconds);
      if (plan.skipped) {
        const above = plan.crawlDelayAboveCap;
        this.outcomes.dropHost(
          slot,
          'crawl-delay-above-cap',
          `Crawl-delay ${above?.declaredSeconds ?? decision.crawlDelaySeconds} s is above the cap of ${above?.capSeconds ?? this.o.maxCrawlDelaySeconds} s`,
          rec,
        );
        return;
      }
      this.frontier.refresh(slot);
    }
    if (decision.fetch !== undefined && rec.url.endsWith('/robots.txt') && rec.url === `${rec.origin}/robots.txt`) {
      // The origin's own robots.txt (always allowed, RFC 9309 §2.2.2): the robots.txt request behind this
      // decision answered it, so it is not fetched again, and it is not a page (no page request was made).
      if (decision.fetch.status !== undefined) rec.status = decision.fetch.status;
      this.outcomes.finalize(rec, 'fetched', 'answered by its robots.txt request');
      return;
    }
    if (decision.verdict === 'disallowed') {
      this.stats.robotsSkip(rec.host);
      this.events.emit({
        type: 'robots-skip',
        at: this.clock.now(),
        url: rec.url,
        host: rec.host,
        ...(decision.line === undefined ? {} : { line: decision.line }),
        ...(decision.rule === undefined ? {} : { rule: decision.rule }),
        reason: 'disallowed',
      });
      const where =
        decision.line === undefined
          ? undefined
          : `robots.txt line ${decision.line}${decision.rule ? `: ${decision.rule}` : ''}`;
      this.outcomes.finalize(rec, 'robots-disallowed', where);
      return;
    }
    rec.state = 'queued';
    this.frontier.enqueue(slot, rec, where);
  }

  /**
   * The carrier's turn on its host: ask the gate, which fetches robots.txt. The frontier has recorded this
   * as the host's start, and it holds a global slot, like a page request.
   */
  startRobots(slot: HostSlot<UrlRecord>, rec: UrlRecord, previousStartAt: number | undefined, now: number): void {
    const gate = this.o.robots!;
    const release = rec.robotsRelease;
    rec.robotsRelease = undefined;
    const done = (): void => {
      release?.();
      this.wakeUps.wake();
    };
    // Another caller may have fetched it since the URL was queued: then there is no request to make (the
    // start the frontier recorded stays: the host waits one interval more, never less).
    const known = gate.peek?.(rec.url);
    if (known) {
      this.frontier.end(slot, now);
      this.robotsDecided(rec, known, 'front');
      // A dropped host's unit goes on with its other members: it is re-keyed too.
      this.frontier.refresh(slot);
      this.outcomes.updateGate();
      done();
      return;
    }
    rec.state = 'in-flight';
    const robotsUrl = `${rec.origin}/robots.txt`;
    this.stats.started(slot.name, now);
    const controller = new AbortController();
    this.s.inFlight++;
    this.controllers.set(rec, controller);
    const settle = (decision: RobotsDecision): void => {
      this.s.inFlight--;
      this.controllers.delete(rec);
      this.deferred.runDeferred();
      try {
        const end = this.clock.now();
        // A gate that gave no details (or was stopped) still closes the request it started.
        const fetch: RobotsFetch = decision.fetch ?? {
          url: robotsUrl,
          startedAt: now,
          endedAt: end,
          error: {
            kind: this.stops.robotsSignal().aborted ? 'aborted' : 'other',
            message: decision.detail ?? 'robots.txt check ended without a response',
          },
          bytes: 0,
          truncated: false,
          fetchedNow: true,
        };
        // The response ended when the fetch says (parsing came after): the end reading counts from then.
        this.frontier.end(slot, Math.min(end, Math.max(fetch.endedAt, fetch.sentAt ?? fetch.endedAt)), fetch.sentAt);
        this.reportRobotsRequest(slot, fetch, end);
        if (this.s.fatal) this.outcomes.finalize(rec, 'failed', 'crawl failed');
        else if (this.s.stopping && decision.outcome === 'unreachable')
          this.outcomes.finalize(rec, 'not-started', 'stopped');
        else this.robotsDecided(rec, decision, 'front');
        // A dropped host's unit goes on with its other members: it is re-keyed too.
        this.frontier.refresh(slot);
        this.outcomes.updateGate();
      } catch (err) {
        this.stops.failCrawl(err);
      }
      done();
    };
    let pending: Promise<RobotsDecision>;
    try {
      pending = Promise.resolve(gate(rec.url, this.stops.robotsSignal()));
    } catch (err) {
      pending = Promise.reject(err);
    }
    // The request is on its way: now say so (the event sink's work does not delay it).
    this.events.emit({
      type: 'request-start',
      at: now,
      url: robotsUrl,
      host: rec.host,
      method: 'GET',
      attempt: 1,
      intervalSeconds: slot.rate.intervalSeconds,
      intervalSource: slot.rate.source,
      ...(previousStartAt === undefined ? {} : { sinceLastStartSeconds: (now - previousStartAt) / 1000 }),
      robotsTxt: true,
      ...(slot.unit.size > 1 ? { unit: slot.unit.name } : {}),
    });
    pending.then(settle, (err: unknown) =>
      settle({
        verdict: 'disallowed',
        outcome: 'unreachable',
        detail: `robots.txt check failed: ${errorMessage(err)}`,
      }),
    );
  }

  /** A robots.txt request's outcome in the event stream and the counts: a response (any status) or an error. */
  private reportRobotsRequest(slot: HostSlot<UrlRecord>, fetch: RobotsFetch, at: number): void {
    const sent = fetch.sentAt !== undefined ? { sentAt: fetch.sentAt } : {};
    if (fetch.status === undefined) {
      this.stats.error(slot.name);
      const error = fetch.error ?? { kind: 'other' as const, message: 'no response' };
      this.events.emit({
        type: 'error',
        at,
        url: fetch.url,
        host: slot.name,
        attempt: 1,
        kind: error.kind,
        message: error.message,
        startedAt: fetch.startedAt,
        ...sent,
        willRetry: false,
        robotsTxt: true,
      });
      return;
    }
    this.stats.status(fetch.status);
    this.stats.transfer(fetch.bytes, fetch.wireBytes, fetch.url);
    this.events.emit({
      type: 'response',
      at,
      url: fetch.url,
      host: slot.name,
      status: fetch.status,
      attempt: 1,
      startedAt: fetch.startedAt,
      ...sent,
      latencyMs: Math.max(0, fetch.endedAt - fetch.startedAt),
      bytes: fetch.bytes,
      ...(fetch.wireBytes !== undefined ? { wireBytes: fetch.wireBytes } : {}),
      truncated: fetch.truncated,
      linksQueued: 0,
      intervalSeconds: slot.rate.intervalSeconds,
      intervalSource: slot.rate.source,
      robotsTxt: true,
    });
  }
}

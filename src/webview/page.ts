/**
 * The planner page: its elements by id (the markup is src/extension/planner/html.ts), and `Planner`, what every
 * section (src/webview/sections/) is handed: the one state, the elements, and the way to the extension.
 */
import type { WebviewToHost } from '../shared/planner/messages';
import { elementsById, type WebviewPage } from './dom';
import type { PlannerState, Timers } from './state';

export function plannerElements() {
  return elementsById({
    main: ['planner', HTMLElement],
    form: ['plan-form', HTMLFormElement],
    trustNote: ['trust-note', HTMLElement],
    status: ['status', HTMLElement],
    // The seeds
    seeds: ['seeds', HTMLTextAreaElement],
    seedsBox: ['seeds-box', HTMLElement],
    seedsCount: ['seeds-count', HTMLElement],
    seedsHelp: ['seeds-help', HTMLElement],
    seedsError: ['seeds-error', HTMLElement],
    seedsFile: ['seeds-file', HTMLElement],
    seedsFileName: ['seeds-file-name', HTMLElement],
    seedsFileCount: ['seeds-file-count', HTMLElement],
    seedsFileLines: ['seeds-file-lines', HTMLOListElement],
    seedsFileProblem: ['seeds-file-problem', HTMLElement],
    openSeedsFile: ['open-seeds-file', HTMLButtonElement],
    useSeedsText: ['use-seeds-text', HTMLButtonElement],
    loadSeedsFile: ['load-seeds-file', HTMLButtonElement],
    useWorkspaceSeeds: ['use-workspace-seeds', HTMLButtonElement],
    seedErrors: ['seed-errors', HTMLUListElement],
    seedNotes: ['seed-notes', HTMLElement],
    // The fields
    pages: ['pages', HTMLInputElement],
    pagesError: ['pages-error', HTMLElement],
    pagesMode: ['pages-mode', HTMLSelectElement],
    rate: ['rate', HTMLInputElement],
    rateError: ['rate-error', HTMLElement],
    workers: ['workers', HTMLInputElement],
    workersError: ['workers-error', HTMLElement],
    machines: ['machines', HTMLInputElement],
    machinesError: ['machines-error', HTMLElement],
    deadline: ['deadline', HTMLInputElement],
    deadlineError: ['deadline-error', HTMLElement],
    delay: ['delay', HTMLInputElement],
    delayError: ['delay-error', HTMLElement],
    delayFrom: ['delay-from', HTMLSelectElement],
    latency: ['latency', HTMLInputElement],
    latencyError: ['latency-error', HTMLElement],
    userAgent: ['user-agent', HTMLInputElement],
    userAgentError: ['user-agent-error', HTMLElement],
    useRobots: ['use-robots', HTMLInputElement],
    checkServers: ['check-servers', HTMLInputElement],
    serversStatus: ['servers-status', HTMLElement],
    cancelServers: ['cancel-servers', HTMLButtonElement],
    politenessBy: ['politeness-by', HTMLSelectElement],
    pagesByHost: ['pages-by-host', HTMLElement],
    pagesByHostList: ['pages-by-host-list', HTMLUListElement],
    pagesByHostMore: ['pages-by-host-more', HTMLElement],
    pagesByHostOther: ['pages-by-host-other', HTMLElement],
    pagesByHostError: ['pages-by-host-error', HTMLElement],
    // Pages from sitemaps
    changedSince: ['changed-since', HTMLInputElement],
    changedSinceChoices: ['changed-since-choices', HTMLDataListElement],
    changedSinceError: ['changed-since-error', HTMLElement],
    sizeSitemaps: ['size-sitemaps', HTMLButtonElement],
    cancelSitemaps: ['cancel-sitemaps', HTMLButtonElement],
    sitemapsStatus: ['sitemaps-status', HTMLElement],
    sitemaps: ['sitemaps', HTMLElement],
    // The plan
    runCrawl: ['run-crawl', HTMLButtonElement],
    copyPlan: ['copy-plan', HTMLButtonElement],
    exportPlan: ['export-plan', HTMLButtonElement],
    openReport: ['open-report', HTMLButtonElement],
    planStatus: ['plan-status', HTMLElement],
    stale: ['stale', HTMLElement],
    total: ['total', HTMLElement],
    binding: ['binding', HTMLElement],
    band: ['band', HTMLElement],
    problems: ['problems', HTMLUListElement],
    sharedServers: ['shared-servers', HTMLUListElement],
    sharedServersMore: ['shared-servers-more', HTMLElement],
    warnings: ['warnings', HTMLUListElement],
    warningsMore: ['warnings-more', HTMLElement],
    chart: ['chart', HTMLElement],
    chartMore: ['chart-more', HTMLElement],
    hostTable: ['host-table', HTMLTableElement],
    tableMore: ['table-more', HTMLElement],
    // What meets the deadline, and the hosts it dropped
    deadlineSection: ['deadline-section', HTMLElement],
    deadlineVerdict: ['deadline-verdict', HTMLElement],
    deadlineEarliest: ['deadline-earliest', HTMLElement],
    deadlineBlocking: ['deadline-blocking', HTMLElement],
    deadlineOptions: ['deadline-options', HTMLUListElement],
    dropped: ['dropped', HTMLElement],
    droppedHead: ['dropped-head', HTMLElement],
    droppedList: ['dropped-list', HTMLUListElement],
    droppedMore: ['dropped-more', HTMLElement],
    restoreAll: ['restore-all', HTMLButtonElement],
    // robots.txt and the origin picker
    robotsStatus: ['robots-status', HTMLElement],
    robotsOrigin: ['robots-origin', HTMLInputElement],
    robotsOriginList: ['robots-origin-list', HTMLUListElement],
    robotsOriginCount: ['robots-origin-count', HTMLElement],
    openRobots: ['open-robots', HTMLButtonElement],
    checkRobots: ['check-robots', HTMLButtonElement],
    robots: ['robots', HTMLElement],
    // The last test crawl
    crawlSection: ['crawl-section', HTMLElement],
    crawlResult: ['crawl-result', HTMLElement],
    crawlNotFollowedHead: ['crawl-not-followed-head', HTMLElement],
    crawlNotFollowed: ['crawl-not-followed', HTMLUListElement],
    // Calibration and simulation
    useCalibration: ['use-calibration', HTMLInputElement],
    calibrationHelp: ['calibration-help', HTMLElement],
    chooseReport: ['choose-report', HTMLButtonElement],
    calibrationOff: ['calibration-off', HTMLButtonElement],
    calibration: ['calibration', HTMLElement],
    calibrationSource: ['calibration-source', HTMLElement],
    calibrationHosts: ['calibration-hosts', HTMLUListElement],
    calibrationMore: ['calibration-more', HTMLElement],
    calibrationUnseen: ['calibration-unseen', HTMLElement],
    simulate: ['simulate', HTMLInputElement],
    simRuns: ['sim-runs', HTMLInputElement],
    simRunsError: ['sim-runs-error', HTMLElement],
    simSeed: ['sim-seed', HTMLInputElement],
    simSeedError: ['sim-seed-error', HTMLElement],
    simulationStatus: ['simulation-status', HTMLElement],
  });
}

export type PlannerElements = ReturnType<typeof plannerElements>;

/** What every section is handed; it saves the fields as typed and the chosen origin. */
export type Planner = WebviewPage<PlannerState, PlannerElements, WebviewToHost>;

/** Stops one of the state's timers (what it would have sent waits for the next edit, or goes now). */
export function stopTimer(p: Planner, name: keyof Timers): void {
  clearTimeout(p.state.timers[name]);
  p.state.timers[name] = undefined;
}

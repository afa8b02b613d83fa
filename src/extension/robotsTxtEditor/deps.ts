/**
 * A ready-made deps object for the robots.txt editor (registerRobotsTxtEditor), from the extension's services: the settings
 * (config.ts applies workspace trust), the sidebar plan's pages (N in "time for N pages" while the
 * Planner has a plan), and the live-file fetch through the extension's robots.txt cache.
 */
import * as vscode from 'vscode';
import { decodeRobotsBody } from '../../core/robots';
import type { ConfigAccess } from '../config';
import type { ContactGuard } from '../contact';
import { SETTINGS } from '../ids';
import { errorMessage, type Log } from '../log';
import type { PlannerViewApi } from '../planner/plannerView';
import type { RobotsService } from '../robots/service';
import type { RobotsTxtDeps } from './index';
import { readRobotsTxtSettings } from './settings';

export interface RobotsTxtDepsSources {
  config: ConfigAccess;
  robots: Pick<RobotsService, 'cacheFor'>;
  /** Asks for a contact before the live fetch reaches a real host without one. */
  contact: ContactGuard;
  log: Log;
  /**
   * The sidebar planner: its current plan's pages (undefined when it has none), and when they change, so the
   * CodeLens can be asked again.
   */
  planner: Pick<PlannerViewApi, 'currentPlanPages' | 'onDidChangePlannedPages'>;
}

/**
 * The editor's deps from the extension's services. The live fetch goes through the
 * shared robots.txt cache with a forced refresh (the user asked for the live file), identifying itself with
 * the configured product token and contact URL. A 4xx gives a one-line comment in place of the file (there
 * is no robots.txt, so everything is allowed); 5xx and network errors give undefined.
 */
export function createRobotsTxtDeps(sources: RobotsTxtDepsSources): RobotsTxtDeps {
  return {
    log: sources.log,
    onDidChangePlannedPages: (listener) => sources.planner.onDidChangePlannedPages(listener),
    getSettings: () =>
      readRobotsTxtSettings(
        vscode.workspace.getConfiguration(SETTINGS.section),
        sources.config.read().settings,
        sources.planner.currentPlanPages(),
      ),
    fetchLiveRobots: async (origin) => {
      const s = sources.config.read().settings;
      try {
        await sources.contact.check([origin], 'robots.txt fetch for Compare with live robots.txt');
        const { userAgentHeader } = await import('../../net/userAgent.js');
        const cache = await sources.robots.cacheFor(userAgentHeader(s.userAgent, s.contactUrl));
        const entry = await cache.get(origin, { refresh: true });
        const r = entry.result;
        sources.log.info(`robots.txt ${r.robotsUrl}: ${r.outcome} (${r.reason})`);
        if (r.outcome === 'ok') return decodeRobotsBody(r.body ?? new Uint8Array()).text;
        if (r.outcome === 'unavailable') return `# ${r.robotsUrl}: ${r.reason.replace(/[\r\n]+/g, ' ')}\n`;
        return undefined;
      } catch (err) {
        sources.log.warn(`robots.txt ${origin}: ${errorMessage(err)}`);
        return undefined;
      }
    },
  };
}

/**
 * robots.txt for URLs: the service (service.ts: the caches, the read-only documents and their provider) and
 * Inspect robots.txt for URL, Open robots.txt (commands.ts). Returns the service, which the planner, the test
 * crawl and the robots.txt editor share.
 */
import type * as vscode from 'vscode';
import { registerRobotsCommands } from './commands';
import { registerRobotsService, type RobotsService, type RobotsServiceDeps } from './service';

export type { RobotsService } from './service';

export function registerRobots(context: vscode.ExtensionContext, deps: RobotsServiceDeps): RobotsService {
  const robots = registerRobotsService(context, deps);
  registerRobotsCommands(context, { robots, log: deps.log });
  return robots;
}

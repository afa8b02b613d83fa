/**
 * The built-in demo hosts: the service that starts and stops them (hosts.ts, src/demo loaded on first use) and
 * Start Demo Hosts, Stop Demo Hosts (commands.ts). Returns the service, which the test crawl and the planner read.
 */
import type * as vscode from 'vscode';
import { registerDemoCommands } from './commands';
import { DemoHostsService, type DemoHostsDeps } from './hosts';

export type { DemoHostsService } from './hosts';

export function registerDemoHosts(context: vscode.ExtensionContext, deps: DemoHostsDeps): DemoHostsService {
  const demo = new DemoHostsService(deps);
  context.subscriptions.push(demo);
  registerDemoCommands(context, { demo, log: deps.log });
  return demo;
}

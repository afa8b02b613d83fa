/**
 * The sidebar planner (docs/extension.md): its view, its commands (Open Planner, Copy Plan as JSON, Load Seeds
 * from File, Size Pages from Sitemaps, Calibrate from Crawl Report, Plan with What the Test Crawl Measured,
 * Simulate Plan), Estimate Crawl Time and Export Plan…. Returns the view, which the plan report, seeds from code,
 * the test crawl and the robots.txt editor read.
 */
import type * as vscode from 'vscode';
import { createPlannerViewDeps, registerPlannerCommands, type PlannerViewDepsInput } from './commands';
import { registerEstimateCommand } from './estimateCommand';
import { registerExportCommand } from './exportCommand';
import { registerPlannerView, type PlannerView } from './plannerView';

export type { PlannerView, PlannerViewApi } from './plannerView';

/** The shared services the planner uses (the extension's folder comes from the context). */
export type PlannerDeps = Omit<PlannerViewDepsInput, 'extensionUri'>;

export function registerPlanner(context: vscode.ExtensionContext, deps: PlannerDeps): PlannerView {
  const { config, log } = deps;
  const view = registerPlannerView(context, createPlannerViewDeps({ ...deps, extensionUri: context.extensionUri }));
  registerPlannerCommands(context, { view, config, log });
  registerEstimateCommand(context, { config, log });
  registerExportCommand(context, { view, config, log });
  return view;
}

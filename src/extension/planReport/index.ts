/**
 * The plan report (Open Plan Report): every host of the planner's plan in an editor tab (panel.ts the panel,
 * controller.ts its messages, table.ts the rows, timeline.ts the simulation's section, html.ts the page).
 */
import * as vscode from 'vscode';
import { runCommand } from '../commandRun';
import { COMMANDS } from '../ids';
import { createPlanReport, type PlanReport, type PlanReportDeps } from './panel';

export function registerPlanReport(context: vscode.ExtensionContext, deps: PlanReportDeps): PlanReport {
  const report = createPlanReport(context, deps);
  context.subscriptions.push(
    report,
    vscode.commands.registerCommand(COMMANDS.openPlanReport, () =>
      runCommand(deps.log, 'Open Plan Report', () => report.open()),
    ),
  );
  return report;
}

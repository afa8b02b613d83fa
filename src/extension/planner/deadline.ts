/**
 * What meets the deadline, applied to the planner: a deadline option's workers, rate and machines go to the
 * form's fields, its caps to the hosts' own pages (`byHost`, every other host keeping its pages as
 * applyPlanChange pins them), its dropped hosts to the list the sidebar shows with an undo (left out of the plan
 * until they are restored).
 */
import { applyPlanChange, type PlanChange, type PlanInput } from '../../core/plan';
import { formatNumber } from '../../core/format/duration';
import type { PlannerForm } from '../../shared/planner/form';
import { MAX_PAGES_BY_HOST } from '../../shared/planner/limits';
import type { StepHost } from './deps';

/** The form with `change` applied (the plan that follows is the option's), or why the form cannot hold it. */
export function formForDeadlineOption(
  form: PlannerForm,
  input: PlanInput,
  change: PlanChange,
): { form: PlannerForm } | { problem: string } {
  const next: PlannerForm = { ...form };
  if (change.workers !== undefined) next.workers = change.workers;
  if (change.rate !== undefined) next.rate = change.rate;
  if (change.machines !== undefined) next.machines = change.machines;
  if (change.pagesByHost !== undefined) {
    const pages = applyPlanChange(input, { pagesByHost: change.pagesByHost }).pages;
    if (!('byHost' in pages)) throw new Error('a cap gives each host its pages');
    // In "by host" the form's numbers stay (those of hosts not planned now too); from a total or "per host",
    // the pinned pages replace numbers kept from an earlier "by host".
    const pagesByHost = form.pagesMode === 'byHost' ? { ...form.pagesByHost, ...pages.byHost } : { ...pages.byHost };
    if (Object.keys(pagesByHost).length > MAX_PAGES_BY_HOST) {
      return {
        problem: `This option sets the pages of ${formatNumber(Object.keys(pagesByHost).length)} hosts; the form holds at most ${formatNumber(MAX_PAGES_BY_HOST)}. Use crawl-planner estimate with the option's flags (Copy plan as JSON: deadline.options).`,
      };
    }
    next.pagesMode = 'byHost';
    next.pagesByHost = pagesByHost;
    next.pages = pages.otherwise ?? 0;
  }
  return { form: next };
}

export class DeadlineStep {
  /** Seed hosts left out of the plan (a deadline's drop option), until they are restored. */
  private dropped: string[] = [];

  /** `planNumber` is the number of the plan made last (the options shown name theirs). */
  constructor(
    private readonly host: StepHost,
    private readonly planNumber: () => number,
  ) {}

  /** The dropped hosts. */
  get hosts(): readonly string[] {
    return this.dropped;
  }

  /** The saved list (before anything is planned). */
  restore(hosts: readonly string[]): void {
    this.dropped = [...hosts];
  }

  /** Applies option `index` of plan `planNumber`; refused when the plan changed since it was shown. */
  apply(planNumber: number, index: number): void {
    const c = this.host.current();
    const option = planNumber === this.planNumber() ? c.plan?.deadline?.options[index] : undefined;
    if (option === undefined || c.input === null) {
      this.host.notice(
        'error',
        'The plan changed since these options were shown: choose one of the options shown now.',
      );
      this.host.postPlan();
      return;
    }
    const applied = formForDeadlineOption(this.host.form(), c.input, option.change);
    if ('problem' in applied) {
      this.host.notice('error', applied.problem);
      return;
    }
    const drop = option.change.dropHosts;
    if (drop !== undefined) this.dropped = [...new Set([...this.dropped, ...drop])];
    this.host.log(`applied the deadline option "${option.text}"`);
    this.host.changeForm(applied.form);
    this.host.notice('info', `Applied: ${option.text}`);
  }

  /** Plans a dropped host again (every one, when `host` is undefined). */
  undrop(host: string | undefined): void {
    const before = this.dropped.length;
    this.dropped = host === undefined ? [] : this.dropped.filter((h) => h !== host);
    if (this.dropped.length === before) return;
    this.host.save();
    this.host.invalidate();
    this.host.postPlan();
  }
}

/**
 * What meets the deadline, as pure functions: the verdict's line, each option's button, and the hosts a
 * dropping option left out of the plan.
 */
import { formatNumber } from '../../core/format/duration';
import { plural } from '../../core/format/text';
import { assertNever } from '../../shared/messageChecks';
import type { DeadlineOptionView, DeadlineView, PlanResultView } from '../../shared/planner/viewModel';

/** In place of the options when there are none and the deadline is missed. */
export const NO_DEADLINE_OPTION = "Nothing within the plan's limits meets it.";

/** The deadline section's heading line: "Deadline 2 d, missed by 3 h 2 m". */
export function deadlineHeadline(view: DeadlineView): string {
  return `Deadline ${view.verdict}`;
}

/** An option's button: what it does in a word or two (the option's text says the rest). */
export function deadlineOptionLabel(option: DeadlineOptionView): string {
  switch (option.kind) {
    case 'cap':
      return option.hostCount === 1 ? 'Cap this host' : `Cap ${formatNumber(option.hostCount)} hosts`;
    case 'drop':
      return option.hostCount === 1 ? 'Drop this host' : `Drop ${formatNumber(option.hostCount)} hosts`;
    case 'workers':
      return 'Set the workers';
    case 'rate':
      return 'Set the rate';
    case 'machines':
      return 'Set the machines';
    default:
      return assertNever(option.kind);
  }
}

/** "2 hosts left out of the plan (a deadline option):" with the hosts named, and how many are not. */
export function droppedText(
  result: Pick<PlanResultView, 'dropped' | 'droppedCount'>,
): { head: string; more: string } | undefined {
  if (result.droppedCount === 0) return undefined;
  const hidden = result.droppedCount - result.dropped.length;
  return {
    head: `${plural(result.droppedCount, 'host')} left out of the plan (a deadline option):`,
    more: hidden > 0 ? `and ${formatNumber(hidden)} more` : '',
  };
}

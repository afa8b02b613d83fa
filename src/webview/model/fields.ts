/**
 * The form's fields as pure functions: the pages mode a select's value means, the placeholders (what an empty
 * field means), and the "pages by host" list (a row per seed host posted, its own pages as typed).
 */
import { PLAN_DEFAULTS } from '../../core/plan';
import { plural } from '../../core/format/text';
import type { RawForm } from '../../shared/planner/form';
import type { PlannerViewSettings, PlanResultView } from '../../shared/planner/viewModel';

/** The pages mode a select's value names ("total" for anything else). */
export function pagesModeOf(value: string): RawForm['pagesMode'] {
  return value === 'perHost' || value === 'byHost' ? value : 'total';
}

/** What an empty field means, as its placeholder; the delay's and the user agent's come with the settings. */
export function fieldPlaceholders(settings: PlannerViewSettings | undefined): {
  delay?: string;
  userAgent?: string;
  workers: string;
  latency: string;
  rate: string;
} {
  const always = {
    workers: String(PLAN_DEFAULTS.workers),
    latency: String(PLAN_DEFAULTS.latencySeconds),
    rate: 'no limit',
  };
  if (settings === undefined) return always;
  return { delay: `${settings.defaultDelaySeconds} (setting)`, userAgent: settings.userAgent, ...always };
}

/** The pages field's placeholder: by host, it is the pages of the hosts without their own. */
export function pagesPlaceholder(byHost: boolean): string {
  return byHost ? '0 (the hosts without their own)' : 'required';
}

/** The rows of "pages by host": each seed host posted, with its own pages as typed ('' for none). */
export function hostPagesRows(
  result: Pick<PlanResultView, 'seedHosts' | 'seedHostCount'>,
  typed: Readonly<Record<string, string>>,
): { rows: Array<{ host: string; text: string }>; more: string } {
  const rows = result.seedHosts.map((host) => ({ host, text: Object.hasOwn(typed, host) ? typed[host]! : '' }));
  const hidden = result.seedHostCount - rows.length;
  return {
    rows,
    more:
      hidden > 0
        ? `and ${plural(hidden, 'more host')}: sizing from sitemaps fills theirs, or they take the number above.`
        : '',
  };
}

/** What the list of hosts is built for: it is built again only when the hosts change (typing keeps its focus). */
export function hostListKey(rows: ReadonlyArray<{ host: string }>): string {
  return rows.map((r) => r.host).join('\n');
}

/** Hosts with pages of their own that are not seed hosts, or ''. */
export function otherHostsText(other: readonly string[]): string {
  return other.length === 0 ? '' : `Also kept, not planned (not seed hosts): ${other.join(', ')}`;
}

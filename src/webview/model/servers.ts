/**
 * "Check shared servers", the politeness unit and the plan's hosts that share a server, as pure functions
 * (docs/extension.md#shared-servers): the status line, when choosing `ip` turns the check on, and each group as
 * the findings area lists it. The words of the groups and findings are the plan's (src/core/plan/sharedServers.ts).
 */
import { formatNumber } from '../../core/format/duration';
import { plural } from '../../core/format/text';
import { DEFAULT_POLITENESS_BY, isPolitenessBy, type PolitenessBy } from '../../core/servers/units';
import { assertNever } from '../../shared/messageChecks';
import type { PlanWarningCode } from '../../core/plan';
import type { ServersState, SharedGroupView, SharedServersView } from '../../shared/planner/viewModel';

/** The select's value as a politeness unit (anything else: the default). */
export function politenessByOf(value: string): PolitenessBy {
  return isPolitenessBy(value) ? value : DEFAULT_POLITENESS_BY;
}

/** Choosing `ip` turns "Check shared servers" on where it can run (a trusted workspace): ip groups by the addresses. */
export function turnsCheckOn(value: string, checked: boolean, trusted: boolean): boolean {
  return value === 'ip' && !checked && trusted;
}

/** The status line under "Check shared servers". */
export function serversStatusText(state: ServersState, checkServers: boolean, politenessBy: PolitenessBy): string {
  if (!checkServers) {
    return politenessBy === 'ip'
      ? 'The ip unit needs "Check shared servers": until the hosts are looked up, each host is its own unit.'
      : '';
  }
  switch (state.state) {
    case 'off':
      return 'Not looked up yet.';
    case 'loading':
      return `Looking up ${plural(state.hosts, 'seed host')}… ${formatNumber(state.done)} done.`;
    case 'done': {
      const failed = state.hosts - state.resolved;
      const head =
        `${plural(state.hosts, 'seed host')} looked up` +
        (failed > 0 ? `: ${formatNumber(failed)} did not resolve (planned as if on servers of their own).` : '.');
      return [head, ...state.settingProblems].join(' ');
    }
    case 'error':
      return state.message;
    default:
      return assertNever(state);
  }
}

/** The finding codes the grouped list shows (the plain warnings list leaves them out while it does). */
export const SHARED_FINDING_CODES: ReadonlySet<PlanWarningCode> = new Set<PlanWarningCode>([
  'shared-address',
  'shared-domain',
]);

/** Whether the plain warnings list shows `code` (not when the grouped list shows it). */
export function warningListed(code: PlanWarningCode, shared: SharedServersView | undefined): boolean {
  return !(SHARED_FINDING_CODES.has(code) && (shared?.groupCount ?? 0) > 0);
}

/** One group as the list draws it. */
export interface SharedGroupItem {
  heading: string;
  hosts: string[];
  /** "and 7 more hosts", or ''. */
  more: string;
  text: string;
  attrs: Record<string, string>;
  className: string;
}

export function sharedGroupItem(g: SharedGroupView): SharedGroupItem {
  const hidden = g.hostCount - g.hosts.length;
  return {
    heading: g.heading,
    hosts: g.hosts,
    more: hidden > 0 ? `and ${plural(hidden, 'more host')}` : '',
    text: g.text,
    attrs: { 'data-kind': g.kind, 'data-key': g.key, 'data-count': String(g.hostCount) },
    className: g.cdn ? 'shared-group cdn' : 'shared-group',
  };
}

/** Under the groups: those not listed, and the hosts that did not resolve, or ''. */
export function sharedServersMoreText(s: SharedServersView): string {
  const parts: string[] = [];
  const hidden = s.groupCount - s.groups.length;
  if (hidden > 0) parts.push(`${plural(hidden, 'more group')}: Copy plan as JSON lists them all (sharedServers).`);
  if (s.unresolvedCount > 0) {
    const shown = s.unresolved.map((u) => `${u.host} (${u.reason})`).join(', ');
    const rest = s.unresolvedCount - s.unresolved.length;
    parts.push(
      `Not resolved: ${shown}${rest > 0 ? ` and ${formatNumber(rest)} more` : ''}; each is planned as its own server.`,
    );
  }
  return parts.join(' ');
}

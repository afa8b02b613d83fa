/**
 * "Check shared servers" and the hosts that share a server (docs/extension.md#shared-servers): the status line and
 * its Cancel button under the checkbox, and the groups in the findings area ("2 hosts on 127.0.0.5 (loopback)",
 * the hosts, the finding's sentence). Host names go in as text nodes only.
 */
import { el } from '../dom';
import { serversStatusText, sharedGroupItem, sharedServersMoreText } from '../model/servers';
import type { Planner } from '../page';

export function renderServers(p: Planner): void {
  const { state, ui } = p;
  const on = state.fields.checkServers;
  ui.serversStatus.textContent = serversStatusText(state.servers, on, state.fields.politenessBy);
  ui.serversStatus.dataset.state = on ? state.servers.state : 'off';
  ui.cancelServers.hidden = !on || state.servers.state !== 'loading';
}

/** The plan's groups, in the findings area (the plain warnings list leaves their findings out). */
export function renderSharedGroups(p: Planner): void {
  const { state, ui } = p;
  ui.sharedServers.replaceChildren();
  ui.sharedServersMore.textContent = '';
  const shared = state.result?.summary?.sharedServers;
  if (shared === undefined) return;
  for (const g of shared.groups) {
    const item = sharedGroupItem(g);
    const hosts = el(
      'ul',
      { className: 'shared-hosts', attrs: { 'aria-label': `Hosts: ${item.heading}` } },
      item.hosts.map((h) => el('li', { className: 'host-name', text: h })),
    );
    if (item.more !== '') hosts.append(el('li', { className: 'more', text: item.more }));
    ui.sharedServers.append(
      el('li', { className: item.className, attrs: item.attrs }, [
        el('p', { className: 'shared-heading', text: item.heading }),
        hosts,
        el('p', { className: 'shared-text', text: item.text }),
      ]),
    );
  }
  ui.sharedServersMore.textContent = sharedServersMoreText(shared);
}

export function listenServers(p: Planner): void {
  p.ui.cancelServers.addEventListener('click', () => p.post({ type: 'cancelServers' }));
}

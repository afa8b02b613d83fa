/** The last test crawl in this window (docs/extension.md §What it shows): how it ended, and what it did not follow. */
import { el } from '../dom';
import { crawlResultModel } from '../model/crawl';
import type { Planner } from '../page';

export function renderCrawl(p: Planner): void {
  const { ui } = p;
  const crawl = p.state.lastCrawl;
  ui.crawlSection.hidden = crawl === undefined;
  if (crawl === undefined) return;
  const model = crawlResultModel(crawl);
  ui.crawlResult.textContent = model.headline;
  ui.crawlResult.dataset.ok = String(model.ok);
  ui.crawlNotFollowedHead.textContent = model.notFollowedHeadline;
  ui.crawlNotFollowed.replaceChildren(...model.notFollowed.map((text) => el('li', { text })));
}

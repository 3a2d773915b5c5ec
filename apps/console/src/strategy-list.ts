/**
 * A widget's strategies as an ordered list a merchandiser edits: each with what it does, moved up or
 * down (the moved strategy's button keeps the keyboard focus), removed, or added from the unused ones.
 * The widgets page edits a widget with it, the experiments page a widget variant.
 */
import { html, nothing, type ReactiveElement } from 'lit';
import type { WidgetStrategy } from '@discovery-kit/protocol';

/** Every strategy with what it does, in words (a Record: a strategy added to the protocol and missing here does not compile). */
const STRATEGY_LABELS: Record<WidgetStrategy, string> = {
  popular: 'Popular: most viewed and bought overall',
  'top-sellers': 'Top sellers: most bought',
  trending: 'Trending: rising this week',
  similar: 'Similar: like the product shown',
  'also-viewed': 'Also viewed: by shoppers who viewed the product',
  'bought-together': 'Bought together: in the same orders',
  personalized: 'Picked for the shopper: from their own history',
  'recently-viewed': 'Recently viewed: by this shopper',
  'buy-again': 'Buy it again: the shopper\'s own purchases, when due',
};
const STRATEGIES = Object.keys(STRATEGY_LABELS) as WidgetStrategy[];

/** `strategies` with the one at `index` moved by `step` (−1 up, +1 down). */
function moveStrategy(strategies: readonly WidgetStrategy[], index: number, step: -1 | 1): WidgetStrategy[] {
  const next = [...strategies];
  const target = index + step;
  if (target < 0 || target >= next.length) return next;
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}

/** The list as a fieldset in `host` (a page rendering into its light DOM); `change` gets the order after an edit. */
export function strategyListView(host: ReactiveElement, order: readonly WidgetStrategy[], change: (order: WidgetStrategy[]) => void, legend: string) {
  const move = async (index: number, step: -1 | 1): Promise<void> => {
    const strategy = order[index]!;
    const next = moveStrategy(order, index, step);
    change(next);
    await host.updateComplete;
    const edge = index + step < 0 || index + step >= next.length;
    host.querySelector<HTMLButtonElement>(`.strategies [data-strategy="${strategy}"] button[data-move="${edge ? -step : step}"]`)?.focus();
  };
  const unused = STRATEGIES.filter((s) => !order.includes(s));
  return html`<fieldset class="strategies"><legend>${legend}</legend>
    <ol>
      ${order.map(
        (s, i) => html`<li data-strategy=${s}>
          <span>${STRATEGY_LABELS[s]}</span>
          <span class="moves">
            <button type="button" class="secondary" data-move="-1" aria-label="Move ${s} up" ?disabled=${i === 0} @click=${() => move(i, -1)}>↑</button>
            <button type="button" class="secondary" data-move="1" aria-label="Move ${s} down" ?disabled=${i === order.length - 1} @click=${() => move(i, 1)}>↓</button>
            <button type="button" class="danger" aria-label="Remove ${s}" ?disabled=${order.length === 1} @click=${() => change(order.filter((x) => x !== s))}>Remove</button>
          </span>
        </li>`,
      )}
    </ol>
    ${unused.length === 0
      ? nothing
      : html`<label for="add-strategy">Add a strategy</label>
          <span class="add-strategy">
            <select id="add-strategy">${unused.map((s) => html`<option value=${s}>${STRATEGY_LABELS[s]}</option>`)}</select>
            <button type="button" class="secondary" data-add-strategy @click=${() => change([...order, (host.querySelector('#add-strategy') as HTMLSelectElement).value as WidgetStrategy])}>Add</button>
          </span>`}
  </fieldset>`;
}

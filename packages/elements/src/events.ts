/** Every event the elements send goes through here: activity intents for the tracker, and navigation a shop may intercept. */
import { ACTIVITY_EVENT } from '@discovery-kit/protocol';
import type { ActivityIntent } from '@discovery-kit/protocol';

/** Name of the cancelable event sent before an element leaves the page; `preventDefault()` keeps the shopper here. */
export const NAVIGATE_EVENT = 'discovery-navigate';

export interface NavigateDetail {
  url: string;
  /** `search` (a submitted query), `suggestion` (a chosen suggestion) or `product` (a chosen product). */
  reason: 'search' | 'suggestion' | 'product';
}

export function announceActivity(from: EventTarget, intent: ActivityIntent): void {
  from.dispatchEvent(new CustomEvent(ACTIVITY_EVENT, { bubbles: true, composed: true, detail: intent }));
}

/** Sends `discovery-navigate`, then goes to `url` unless a listener cancelled it (a single-page shop routes itself). */
export function navigateTo(from: EventTarget, detail: NavigateDetail): void {
  const event = new CustomEvent<NavigateDetail>(NAVIGATE_EVENT, { bubbles: true, composed: true, cancelable: true, detail });
  if (from.dispatchEvent(event)) location.assign(detail.url);
}

declare global {
  interface HTMLElementEventMap {
    [NAVIGATE_EVENT]: CustomEvent<NavigateDetail>;
  }
  interface DocumentEventMap {
    [NAVIGATE_EVENT]: CustomEvent<NavigateDetail>;
  }
}

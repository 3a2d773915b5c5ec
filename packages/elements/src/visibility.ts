/** A reactive controller that knows whether its element is on screen, for impression (view) tracking. */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export class VisibilityController implements ReactiveController {
  visible = false;
  private observer?: IntersectionObserver;

  constructor(
    private readonly host: ReactiveControllerHost & Element,
    private readonly onVisible: () => void,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.observer = new IntersectionObserver((entries) => {
      this.visible = entries.some((entry) => entry.isIntersecting);
      if (this.visible) this.onVisible();
    });
    this.observer.observe(this.host);
  }

  hostDisconnected(): void {
    this.observer?.disconnect();
    this.visible = false;
  }
}

/**
 * The data layer: `window.discoveryLayer.push(['purchase', order])` works before the script has
 * loaded (the array waits) and after (push runs the command at once). A command runs once: it
 * leaves the array when it runs, so a second tracker on the page does not repeat a purchase.
 */

declare global {
  interface Window {
    discoveryLayer?: unknown[];
  }
}

export function connectDataLayer(win: Window, run: (name: string, args: unknown[]) => void): () => void {
  const layer = (win.discoveryLayer ??= []);
  const runOne = (command: unknown) => {
    if (!Array.isArray(command) || typeof command[0] !== 'string') {
      console.warn('Discovery Kit: a data layer entry is [command, ...arguments]; ignored.', command);
      return;
    }
    try {
      run(command[0], command.slice(1));
    } catch (error) {
      console.warn(`Discovery Kit: the data layer command "${command[0]}" failed.`, error);
    }
  };
  const waiting = layer.splice(0);
  layer.push = (...commands: unknown[]) => {
    commands.forEach(runOne);
    return layer.length;
  };
  waiting.forEach(runOne);
  return () => {
    delete (layer as { push?: unknown }).push;
  };
}

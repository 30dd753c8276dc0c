/**
 * One full turn of the event loop: due timers, then the poll for I/O, then the check phase. A
 * request that must not be sent blind (a create) takes this turn just before it leaves, so that
 * what happened to the process's sockets while it could not run (a pause: SIGSTOP, a VM frozen,
 * a long GC, a blocked loop) is seen first: a keep-alive socket the server closed meanwhile is
 * dropped by the pool (its FIN read, its idle timer fired) instead of carrying the request into a
 * reset that leaves its fate unknown (docs/fault-model.md, "A dead socket").
 */

/** Resolves after the loop has run its timers, polled for I/O and reached its check phase. */
export function loopTurn(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
  return new Promise<void>((resolve) => {
    setTimeout(() => {
      // Without setImmediate (workers, browsers), a second timer: the poll ran between the two.
      if (immediate) immediate(resolve);
      else setTimeout(resolve, 0);
    }, 0);
  });
}

/** The base of every resource class: it holds the HTTP core and nothing else. */
import type { HttpCore } from '../core/call/http.js';

/** A family of API calls sharing the client's HTTP core. */
export abstract class APIResource {
  /** @internal */
  protected readonly core: HttpCore;

  /** @internal Resources are built by the client. */
  constructor(core: HttpCore) {
    this.core = core;
  }
}

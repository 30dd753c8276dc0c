/**
 * The client's own credentials, remembered so that any server text we repeat (an error body, a
 * message, a log line) can be scrubbed of them: an echoing server must not make us print them.
 */
import { scrubDeep, scrubSecrets } from '../observability/redact.js';

/** Tokens remembered besides the secret key: the current one and a few it replaced. */
const TOKENS_KEPT = 4;

/** The secret key and the latest tokens of one client. */
export class KnownSecrets {
  readonly #fixed: string[];
  readonly #tokens: string[] = [];

  /** @param fixed Values scrubbed for the client's whole life (its secret key, a static token). */
  constructor(fixed: ReadonlyArray<string | undefined>) {
    this.#fixed = fixed.filter((value): value is string => typeof value === 'string' && value.length > 0);
  }

  /** Remembers a token the client uses. */
  addToken(token: string): void {
    if (this.#tokens.includes(token) || this.#fixed.includes(token)) return;
    this.#tokens.push(token);
    if (this.#tokens.length > TOKENS_KEPT) this.#tokens.shift();
  }

  /** Every value to scrub. */
  list(): readonly string[] {
    return this.#tokens.length === 0 ? this.#fixed : [...this.#fixed, ...this.#tokens];
  }

  /** `text` with every known secret replaced by `[REDACTED]`. */
  scrub(text: string): string {
    return scrubSecrets(text, this.list());
  }

  /** A deep copy of `value` with every known secret replaced in its strings. */
  scrubDeep(value: unknown): unknown {
    return scrubDeep(value, this.list());
  }

  /** @internal Never shows the values. */
  toJSON(): string {
    return 'KnownSecrets';
  }
}

/**
 * A root client and the clients derived from it with `withOptions` (docs/platforms.md): what they
 * share (the connection, the log sink, tracing, the coordination, the clock) and what a derived
 * client may not change. Each derived client keeps its own account state: token, 429 pause and
 * limiter, rent-unit check.
 */

import type { OperationIndex } from '../core/call/operation.js';
import type { Coordination } from '../core/coordination/coordination.js';
import { type ClientOptions, ConfigurationError } from '../core/options.js';

/** What every client of one family shares; built once, by the root. */
export interface ClientFamily {
  /** The coordination the family's processes share, when one was given (else in-process). */
  readonly coordination: Coordination;
  /** Whether `coordination` was given (a fleet's): pauses are then published and subscribed. */
  readonly coordinated: boolean;
  /** The raw-request methods' index of the SDK's operations (built once, not per account). */
  readonly operations: OperationIndex;
  /** The SDK's own headers (accept, user-agent): read, never written, by every member's core. */
  readonly sdkHeaders: Readonly<Record<string, string>>;
  /** Set when the root closes: every client of the family refuses its calls from then on. */
  closed: boolean;
  /**
   * The secret key each client id was last given in this family: a client id derived with
   * another one is a rotation, whose first refresh drops the stored token the old secret minted
   * (docs/platforms.md, "Rotating a landlord's secret key").
   */
  readonly secretKeys: Map<string, string>;
}

/**
 * Options only a root takes: a derived client sends on the root's connection, logs to its logger,
 * waits on its clock and shares its coordination and token store.
 */
const ROOT_OPTIONS = [
  'baseURL',
  'fetch',
  'dispatcher',
  'clock',
  'coordination',
  'tokenStore',
  'logger',
  'allowInsecureHttp',
] as const satisfies readonly Exclude<keyof ClientOptions, keyof DerivedClientOptions>[];

/**
 * What `client.withOptions(...)` takes: another account's credentials (`clientId` with its
 * `secretKey`) and per-call behaviour (`timeout`, `maxRetries`, `deadline`,
 * `logLevel`, `apiRentUnit`, `defaultHeaders`, ...). Without credentials, the derived client acts
 * for the same account as its parent. The connection, logger, clock, coordination and token store
 * are the root's: passing `baseURL`, `fetch`, `dispatcher`, `clock`, `coordination`, `tokenStore`,
 * `logger` or `allowInsecureHttp` is a `ConfigurationError`.
 */
export type DerivedClientOptions = Omit<
  ClientOptions,
  | 'baseURL'
  | 'fetch'
  | 'dispatcher'
  | 'clock'
  | 'coordination'
  | 'tokenStore'
  | 'logger'
  | 'allowInsecureHttp'
  | 'accessToken'
>;

/**
 * What `VerificationClient.platformRoot(...)` takes: every client option but the credentials
 * (`clientId`, `secretKey`, `accessToken`), since a platform root is no account.
 */
export type PlatformRootOptions = Omit<ClientOptions, 'clientId' | 'secretKey' | 'accessToken'>;

/** The options a derived client resolves, and whether it acts for its parent's account. */
export interface Derivation {
  /** The parent's options with the overrides over them (credentials replaced as a whole). */
  options: ClientOptions;
  /** True when the overrides name no credentials: the derived client shares the parent's token. */
  sameAccount: boolean;
}

/**
 * Checks `overrides` and lays them over the parent's options. Credentials are replaced as a pair
 * (never one field of the parent's kept beside a new one) and never read from the environment.
 * @throws {ConfigurationError} naming a root-only option, an `accessToken`, or a client id without
 *   its secret key (or the reverse).
 */
export function deriveOptions(parent: ClientOptions, overrides: DerivedClientOptions): Derivation {
  if (typeof overrides !== 'object' || overrides === null) {
    throw new ConfigurationError('withOptions takes an options object.');
  }
  const given = overrides as ClientOptions;
  for (const name of ROOT_OPTIONS) {
    if (given[name] !== undefined) {
      throw new ConfigurationError(
        `withOptions cannot change the ${name} option: a derived client shares its root's connection, logger, clock, coordination and token store. Build another root client for another ${name}.`,
      );
    }
  }
  if (given.accessToken !== undefined) {
    throw new ConfigurationError(
      'withOptions takes another account as its clientId and secretKey, not an accessToken: an access token names no account the SDK could keep apart from the others (build a root client for it).',
    );
  }
  const sameAccount = given.clientId === undefined && given.secretKey === undefined;
  if (!sameAccount && (given.clientId === undefined || given.secretKey === undefined)) {
    const missing = given.clientId === undefined ? 'clientId' : 'secretKey';
    throw new ConfigurationError(
      `withOptions: pass the account's clientId and secretKey together (${missing} is missing); a parent's credential is never paired with a new one.`,
    );
  }
  const options: ClientOptions = Object.assign({}, parent, stripUndefined(given));
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: equivalent while credentials win over an accessToken (options.ts); kept so a derived client's options never carry the root's token
  if (!sameAccount) options.accessToken = undefined;
  return { options, sameAccount };
}

function stripUndefined(options: ClientOptions): ClientOptions {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(options)) if (value !== undefined) kept[name] = value;
  return kept as ClientOptions;
}

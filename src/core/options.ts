/**
 * Client options: their defaults, environment fallbacks and checks. A misconfigured client fails
 * at construction with a message naming the option and the variable, never on the first call.
 */
import type { Dispatcher } from 'undici';
import type { ValidationMode } from './call/validate.js';
import { type Clock, realClock } from './clock.js';
import type { Coordination, CoordinationFailurePolicy } from './coordination/coordination.js';
import { VerificationError } from './errors.js';
import { isLogLevel, type Logger, type LogLevel } from './observability/log.js';
import type { TokenStore } from './token/token-store.js';

/** Everything `new VerificationClient(options)` accepts. */
export interface ClientOptions {
  /** API base URL. Default: env `VERIFICATION_BASE_URL`. Must be https, except loopback hosts. */
  baseURL?: string | undefined;
  /** Client id for POST /api/v1/tenants/auth. Default: env `VERIFICATION_CLIENT_ID`. */
  clientId?: string | undefined;
  /** Secret key for the token exchange and webhook signatures. Default: env `VERIFICATION_SECRET_KEY`. */
  secretKey?: string | undefined;
  /** A token, or a function returning one, used instead of the client-credentials exchange. */
  accessToken?: string | (() => string | Promise<string>) | undefined;
  /** Milliseconds per attempt, response body included. Default 60 000 (edge entry: 8 000). */
  timeout?: number | undefined;
  /** Retries after the first attempt. Default 2. The token exchange's attempts count against them. */
  maxRetries?: number | undefined;
  /**
   * Milliseconds a whole call may take, every attempt and wait included. Default: `timeout` ×
   * (`maxRetries` + 1) plus the longest backoff before each retry (edge entry: 20 000).
   */
  deadline?: number | undefined;
  /**
   * After a create with a `correlation_id` failed ambiguously (timeout, reset, 5xx, unreadable
   * body), how long in ms the SDK keeps looking the group up before it throws
   * `GroupMayHaveBeenCreatedError`. Default 30 000 (edge entry: 6 000).
   */
  createGraceWindow?: number | undefined;
  /**
   * Any undici Dispatcher (ProxyAgent, MockAgent, an mTLS Agent); default a keep-alive Pool. Not
   * under Bun, whose `undici` cannot dispatch, nor on the edge entry: the SDK sends through fetch there.
   */
  dispatcher?: Dispatcher | undefined;
  /**
   * Where processes behind one client id share their access token (a `FileTokenStore`, Redis, ...):
   * the client takes a usable token from it before exchanging, and saves each token it exchanges.
   */
  tokenStore?: TokenStore | undefined;
  /**
   * Send requests with a fetch implementation instead of undici (msw in-process tests, edge
   * runtimes). `true`, or `globalThis.fetch` itself, means the global fetch looked up at call
   * time, so an msw server started after the client still intercepts.
   */
  fetch?: typeof fetch | true | undefined;
  /** `off`, `error`, `warn` (default), `info` or `debug`. Default: env `VERIFICATION_LOG`. */
  logLevel?: LogLevel | undefined;
  /** Where log lines go; default the console. Lines are redacted before they get here. */
  logger?: Logger | undefined;
  /** `strict` (default) throws ResponseValidationError on a bad response; `warn` logs and returns it. */
  validation?: ValidationMode | undefined;
  /**
   * Requests in flight at once, across the client (default: no limit of the client's own). On a
   * root client it also caps the sockets of the API pool that the root and every client derived
   * from it share; without it that pool opens at most 16 sockets to the API host (requests beyond
   * wait in its queue, within their attempt's timeout). Ignored for the sockets when the client
   * sends through a caller's `dispatcher` or `fetch`, which manage their own.
   */
  maxConcurrency?: number | undefined;
  /** Response bodies larger than this many bytes are refused. Default 50 MB. */
  maxResponseBytes?: number | undefined;
  /** Allow a plain-http baseURL on a non-loopback host (never in production). Default false. */
  allowInsecureHttp?: boolean | undefined;
  /**
   * Headers added to every API request (never sent to a PDF file host). Names are
   * case-insensitive: a header the SDK sets (`Authorization`, `Content-Type`, `Content-Length`,
   * `Host`, `User-Agent`, `Accept`, the connection's own), in any spelling, is a
   * `RequestValidationError` on the first call, before any I/O. To act for another account, use
   * `withOptions({ clientId, secretKey })` (or a client with `accessToken`), never an
   * `Authorization` header.
   */
  defaultHeaders?: Record<string, string> | undefined;
  /**
   * How the API reads an applicant-group create's `monthly_rent`: `'dollars'` (default, the
   * interface spec) or `'cents'` (the service's own reference). The SDK converts the rent you give
   * (`monthly_rent` dollars or `monthly_rent_cents`) and sends `monthly_rent` in this unit. Each
   * create's echo is checked: see `rentUnitMismatch` and the README's "Rent unit".
   */
  apiRentUnit?: 'dollars' | 'cents' | undefined;
  /**
   * What a client does after a create's echoed `monthly_rent_cents` shows the API reads the other
   * unit (a factor of 100 off): `'refuse'` (default) refuses its later creates before any I/O;
   * `'continue'` only logs (at error level) and publishes the alert. The group is returned either way.
   */
  rentUnitMismatch?: 'refuse' | 'continue' | undefined;
  /**
   * The time source of the SDK's own waits (retry backoff, 429 pauses, a create's grace window,
   * polling) and of its deadlines. Default: the wall clock and real timers. In tests, pass the
   * mock's `testClock` (`applicant-verification/testing`): the waits then take no real time and
   * the SDK and the mock share one time.
   */
  clock?: Clock | undefined;
  /**
   * What the processes behind one client id share: who may send a create for a correlation id
   * (`createOnce`), one token exchange at a time, and the pause after a 429. Default: in-process
   * (costs nothing). `FileCoordination` covers the processes of one machine.
   */
  coordination?: Coordination | undefined;
  /**
   * What `createOnce` does when the coordination fails (throws: its store is down) as it takes
   * the create lease. `'refuse'` (default): the call fails with the coordination's error and sends
   * nothing. `'continue'`: one warning per call, then the create goes ahead without the lease,
   * still single-flight in this process and still looking the household up first; another process
   * may then send the same create. A lease another process holds is never bypassed. The token
   * exchange and 429 pauses always continue past a failing coordination. Per call, `createOnce`'s
   * own `coordinationFailure` wins.
   */
  coordinationFailure?: CoordinationFailurePolicy | undefined;
}

/** `T` with every field present and `undefined` taken out of its type. */
type Settled<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };

/**
 * {@link ClientOptions} resolved once, at construction: defaults applied (each stated once, in
 * {@link resolveOptions} or the entry's {@link TimingDefaults}), environment read, everything
 * checked. The client and its core read the fields they need from this one object; nothing is
 * copied field by field between layers. Documentation is on {@link ClientOptions}.
 */
export type ResolvedOptions = Settled<
  Omit<
    ClientOptions,
    | 'baseURL'
    | 'clientId'
    | 'secretKey'
    | 'accessToken'
    | 'allowInsecureHttp'
    | 'fetch'
    | 'deadline'
    | 'coordination'
    | 'dispatcher'
    | 'tokenStore'
    | 'logger'
  >
> &
  Pick<
    ClientOptions,
    'accessToken' | 'secretKey' | 'coordination' | 'dispatcher' | 'tokenStore' | 'logger'
  > & {
    /** The API base URL, parsed. */
    baseURL: URL;
    /** The client-credentials pair, when both are known (from options or the environment). */
    credentials: { clientId: string; secretKey: string } | undefined;
    /** The fetch to send with, looked up at call time; `undefined`: undici. */
    fetch: (() => typeof fetch) | undefined;
    /** A whole-call deadline in ms; `undefined`: timeout × attempts plus backoff, bounding the waits only. */
    deadline: number | undefined;
  };

const COORDINATION_METHODS = [
  'acquireCreateLease',
  'releaseCreateLease',
  'recordCreateOutcome',
  'readCreateOutcome',
  'withTokenExchange',
  'publishPause',
  'onPause',
] as const;

function checkCoordination(coordination: Coordination | undefined): Coordination | undefined {
  if (coordination === undefined) return undefined;
  const missing = COORDINATION_METHODS.filter(
    (method) => typeof (coordination as unknown as Record<string, unknown>)?.[method] !== 'function',
  );
  if (missing.length > 0) {
    throw new ConfigurationError(
      `The coordination option needs the Coordination methods (as FileCoordination has); missing: ${missing.join(', ')}.`,
    );
  }
  return coordination;
}

/** Thrown at construction when options are missing or wrong. */
export class ConfigurationError extends VerificationError {
  override name = 'ConfigurationError';
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

function env(name: string): string | undefined {
  const value = typeof process === 'undefined' ? undefined : process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

function positive(name: string, value: number, allowZero = false): number {
  if (!Number.isFinite(value) && value !== Number.POSITIVE_INFINITY) {
    throw new ConfigurationError(`The ${name} option must be a number, got ${String(value)}.`);
  }
  if (value < 0 || (!allowZero && value === 0)) {
    throw new ConfigurationError(
      `The ${name} option must be ${allowZero ? '0 or more' : 'greater than 0'}, got ${value}.`,
    );
  }
  return value;
}

function resolveBaseURL(given: string | undefined, allowInsecureHttp: boolean): URL {
  const raw = given ?? env('VERIFICATION_BASE_URL');
  if (!raw) {
    throw new ConfigurationError(
      'No API base URL: pass the baseURL option or set the VERIFICATION_BASE_URL environment variable.',
    );
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigurationError(
      `The baseURL option (or VERIFICATION_BASE_URL) is not an absolute URL: "${raw}".`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigurationError(`The baseURL must use https, got "${url.protocol}".`);
  }
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname) && !allowInsecureHttp) {
    throw new ConfigurationError(
      `The baseURL "${url.origin}" uses plain http: credentials and applicants' data would travel unencrypted. Use https, or pass allowInsecureHttp: true for a test host.`,
    );
  }
  return url;
}

/**
 * The defaults an entry gives the timing options. The Node entry's are {@link NODE_DEFAULTS}; the
 * edge entry's end every call well inside the edge platforms' request limits.
 */
export interface TimingDefaults {
  timeout: number;
  maxRetries: number;
  /** `undefined`: `timeout` × attempts plus backoff, and it bounds the waits only. */
  deadline: number | undefined;
  createGraceWindow: number;
}

/** The Node entry's defaults (also Bun's and Deno's). */
export const NODE_DEFAULTS: TimingDefaults = {
  timeout: 60_000,
  maxRetries: 2,
  deadline: undefined,
  createGraceWindow: 30_000,
};

/**
 * The client id and secret key: both from the options, or (when neither is given) both from the
 * environment. One without the other is refused, never completed from the environment: a
 * platform's client id paired with the process's own secret key would be another account's
 * credentials. A secret key alone stands beside an `accessToken` (it checks webhook signatures).
 */
function credentialPair(
  options: ClientOptions,
  fromEnvironment: boolean,
): { clientId: string | undefined; secretKey: string | undefined } {
  const { clientId, secretKey } = options;
  if (clientId === undefined && secretKey === undefined) {
    if (!fromEnvironment) return { clientId, secretKey };
    return { clientId: env('VERIFICATION_CLIENT_ID'), secretKey: env('VERIFICATION_SECRET_KEY') };
  }
  if (secretKey === undefined) {
    throw new ConfigurationError(
      'The clientId option needs its secretKey: pass both (an account is the pair; the SDK never takes the secret key from the environment for a client id given here).',
    );
  }
  if (clientId === undefined && options.accessToken === undefined) {
    throw new ConfigurationError(
      'The secretKey option needs its clientId: pass both (an account is the pair; the SDK never takes the client id from the environment for a secret key given here).',
    );
  }
  return { clientId, secretKey };
}

/** A platform root names no account: credentials given to it are a mistake, refused by name. */
function refuseCredentials(options: ClientOptions): void {
  const given = (['clientId', 'secretKey', 'accessToken'] as const).filter(
    (name) => options[name] !== undefined,
  );
  if (given.length === 0) return;
  throw new ConfigurationError(
    `A platform root acts for no account, so it takes no ${given.join(', ')}: pass each account's credentials to root.withOptions({ clientId, secretKey }), or build an ordinary client for one account.`,
  );
}

/** Applies defaults and environment fallbacks, and checks everything. */
export function resolveOptions(
  options: ClientOptions,
  defaults: TimingDefaults = NODE_DEFAULTS,
  {
    credentialsFromEnvironment = true,
    noAccount = false,
  }: {
    credentialsFromEnvironment?: boolean;
    /** A platform root (docs/platforms.md): it acts for no account, so it takes no credentials. */
    noAccount?: boolean;
  } = {},
): ResolvedOptions {
  const baseURL = resolveBaseURL(options.baseURL, options.allowInsecureHttp ?? false);
  if (noAccount) refuseCredentials(options);
  const { clientId, secretKey } = credentialPair(options, credentialsFromEnvironment && !noAccount);
  const accessToken = options.accessToken;
  if (!noAccount && accessToken === undefined && (!clientId || !secretKey)) {
    const missing = [
      !clientId && 'clientId (env VERIFICATION_CLIENT_ID)',
      !secretKey && 'secretKey (env VERIFICATION_SECRET_KEY)',
    ].filter(Boolean);
    throw new ConfigurationError(
      `Missing credentials: pass ${missing.join(' and ')}, or an accessToken option.`,
    );
  }
  const logLevel = options.logLevel ?? env('VERIFICATION_LOG') ?? 'warn';
  if (!isLogLevel(logLevel)) {
    throw new ConfigurationError(
      `The logLevel option (or VERIFICATION_LOG) must be one of off, error, warn, info, debug; got "${logLevel}".`,
    );
  }
  const validation = options.validation ?? 'strict';
  if (validation !== 'strict' && validation !== 'warn') {
    throw new ConfigurationError(
      `The validation option must be 'strict' or 'warn', got "${String(validation)}".`,
    );
  }
  const givenFetch = options.fetch;
  const fetchImpl =
    givenFetch === undefined
      ? undefined
      : givenFetch === true || givenFetch === globalThis.fetch
        ? () => globalThis.fetch
        : () => givenFetch;
  const tokenStore = options.tokenStore;
  if (
    tokenStore !== undefined &&
    (typeof tokenStore?.get !== 'function' || typeof tokenStore.set !== 'function')
  ) {
    throw new ConfigurationError(
      'The tokenStore option needs get() and set(token) methods, as FileTokenStore has.',
    );
  }
  if (tokenStore !== undefined && !noAccount && !(clientId && secretKey)) {
    throw new ConfigurationError(
      'The tokenStore option shares tokens exchanged for clientId and secretKey: pass them too (an accessToken is not shared).',
    );
  }
  const apiRentUnit = options.apiRentUnit ?? 'dollars';
  if (apiRentUnit !== 'dollars' && apiRentUnit !== 'cents') {
    throw new ConfigurationError(
      `The apiRentUnit option must be 'dollars' or 'cents' (how the API reads monthly_rent), got "${String(apiRentUnit)}".`,
    );
  }
  const rentUnitMismatch = options.rentUnitMismatch ?? 'refuse';
  if (rentUnitMismatch !== 'refuse' && rentUnitMismatch !== 'continue') {
    throw new ConfigurationError(
      `The rentUnitMismatch option must be 'refuse' or 'continue', got "${String(rentUnitMismatch)}".`,
    );
  }
  const coordinationFailure = options.coordinationFailure ?? 'refuse';
  if (coordinationFailure !== 'refuse' && coordinationFailure !== 'continue') {
    throw new ConfigurationError(
      `The coordinationFailure option must be 'refuse' or 'continue', got "${String(coordinationFailure)}".`,
    );
  }
  const deadline = options.deadline ?? defaults.deadline;
  return {
    apiRentUnit,
    rentUnitMismatch,
    baseURL,
    credentials: clientId && secretKey ? { clientId, secretKey } : undefined,
    accessToken,
    secretKey,
    timeout: positive('timeout', options.timeout ?? defaults.timeout),
    maxRetries: positive('maxRetries', options.maxRetries ?? defaults.maxRetries, true),
    deadline: deadline === undefined ? undefined : positive('deadline', deadline),
    createGraceWindow: positive(
      'createGraceWindow',
      options.createGraceWindow ?? defaults.createGraceWindow,
      true,
    ),
    clock: options.clock ?? realClock,
    coordination: checkCoordination(options.coordination),
    coordinationFailure,
    dispatcher: options.dispatcher,
    tokenStore,
    fetch: fetchImpl,
    logLevel,
    logger: options.logger,
    validation,
    maxConcurrency: positive('maxConcurrency', options.maxConcurrency ?? Number.POSITIVE_INFINITY),
    maxResponseBytes: positive('maxResponseBytes', options.maxResponseBytes ?? 50 * 1024 * 1024),
    defaultHeaders: options.defaultHeaders ?? {},
  };
}

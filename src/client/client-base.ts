/**
 * What every entry's VerificationClient is: resolves options and wires the core to the resources.
 * The transport comes from the entry's {@link Connector} (client.ts on Node, edge-client.ts on the edge).
 * A client built with `new` is a root; `withOptions` derives clients for other accounts (or other
 * per-call behaviour) that share the root's connection, logger, clock and coordination
 * (client-family.ts).
 */

import { HttpCore } from '../core/call/http.js';
import { Limiter } from '../core/call/limiter.js';
import { indexOperations } from '../core/call/operation.js';
import {
  type RawGetMethod,
  type RawPostMethod,
  type RawRequestMethod,
  rawRequestMethods,
} from '../core/call/raw-request.js';
import { publishPause, sharePauses, withCoordinatedExchange } from '../core/coordination/coordinated.js';
import { processCoordination } from '../core/coordination/in-process-coordination.js';
import { INSPECT } from '../core/observability/inspect.js';
import { createLogger } from '../core/observability/log.js';
import { maskText } from '../core/observability/redact.js';
import { type ClientOptions, type ResolvedOptions, resolveOptions } from '../core/options.js';
import { StaticTokenSource, TokenManager, type TokenSource } from '../core/token/auth.js';
import { KnownSecrets } from '../core/token/secrets.js';
import { createTokenExchange } from '../core/token/token-exchange.js';
import { withTokenStore } from '../core/token/token-store.js';
import type { Connection, Connector } from '../core/transport/connector.js';
import { runtimeName } from '../core/transport/runtime.js';
import { Creates } from '../creates/creates.js';
import { rawRecovery } from '../creates/unresolved.js';
import { ApplicantGroups } from '../resources/applicant-groups.js';
import { Auth } from '../resources/auth.js';
import { OPERATIONS } from '../resources/operations.js';
import { RentEchoCheck } from '../resources/rent-echo.js';
import { Reports } from '../resources/reports.js';
import { ScreeningGroups } from '../resources/screening-groups.js';
import { Webhooks } from '../resources/webhooks.js';
import { VERSION } from '../version.js';
import {
  type ClientFamily,
  type DerivedClientOptions,
  deriveOptions,
  type PlatformRootOptions,
} from './client-family.js';

/**
 * @internal The client of the Applicant Income and Asset Verification API, sending through the
 * connector its entry gives; users construct the entry's `VerificationClient`.
 */
export class ClientBase {
  /** Applicant groups: list, create, reports of a group. */
  readonly applicantGroups: ApplicantGroups;
  /** Reports: detail and PDF. */
  readonly reports: Reports;
  /**
   * Screening groups: the earlier interface, filed by the service under a deprecated version.
   * @deprecated Use {@link ClientBase.applicantGroups} and {@link ClientBase.reports}, the current
   * family. Kept for accounts that still use screening groups.
   */
  readonly screeningGroups: ScreeningGroups;
  /** Webhook signature checks, keyed with the client's secret key. */
  readonly webhooks: Webhooks;
  /** The access token behind the calls. */
  readonly auth: Auth;
  /** The API base URL in use. */
  readonly baseURL: string;
  /**
   * The account the client acts for: its client id (a root's, or the one `withOptions` was given;
   * a derived client without credentials keeps its parent's). `undefined` for a client built with
   * an `accessToken`, which names no account. Shown by `util.inspect` and `toJSON`; the secret key
   * never is.
   */
  get clientId(): string | undefined {
    return this.#clientId;
  }
  /**
   * A raw request, for endpoints and fields newer than the SDK, through the same core (auth,
   * retries under the create policy, timeouts, logging); validated when a `schema` is given.
   *
   * ```ts
   * const page = await client.request({ method: 'GET', path: '/api/v1/applicant_groups', query: { page: 2 }, schema });
   * ```
   */
  readonly request: RawRequestMethod;
  /** A raw GET of `path` (under the base URL); see {@link VerificationClient.request}. */
  readonly get: RawGetMethod;
  /** A raw POST to `path`, never resent after an ambiguous failure without a `lookup`; see {@link VerificationClient.request}. */
  readonly post: RawPostMethod;
  readonly #clientId: string | undefined;
  /** Whether the client acts for no account (a platform root): every call is refused. */
  readonly #noAccount: boolean;
  readonly #stopPauses: () => void;
  readonly #core: HttpCore;
  readonly #family: ClientFamily;
  /** The root's connection; `undefined` on a derived client, whose `close()` releases nothing shared. */
  readonly #connection: Connection | undefined;
  /** This client's options as resolved into a derivable form (credentials filled in, never re-read from env). */
  readonly #options: ClientOptions;
  readonly #account: AccountState;
  readonly #transport: Connection['transport'];

  /** Options default to the `VERIFICATION_*` environment variables; see {@link ClientOptions}. */
  constructor(options: ClientOptions, connector: Connector) {
    const parent = deriving;
    deriving = undefined;
    const platformRoot = buildingPlatformRoot;
    buildingPlatformRoot = false;
    // A platform root acts for no account, and so does a client derived from it without credentials.
    const noAccount = parent ? parent.noAccount && parent.sameAccount !== undefined : platformRoot;
    this.#noAccount = noAccount;
    const resolved = resolveOptions(options, connector.defaults, {
      credentialsFromEnvironment: parent === undefined,
      noAccount,
    });
    const clock = resolved.clock;
    const origin = resolved.baseURL.origin;
    // A static token has no client id: its processes coordinate under one shared stand-in.
    const coordinationKey = resolved.credentials?.clientId ?? 'access-token';
    this.baseURL = resolved.baseURL.href;
    this.#clientId = resolved.credentials?.clientId;
    // A derived client's options already name its credentials (deriveOptions built them).
    this.#options = parent
      ? options
      : Object.assign({}, options, {
          clientId: resolved.credentials?.clientId,
          secretKey: resolved.secretKey,
        });
    let family: ClientFamily;
    let transport: Connection['transport'];
    if (parent) {
      family = parent.family;
      transport = parent.transport;
      this.#connection = undefined;
    } else {
      const connection = connector.connect(origin, {
        dispatcher: resolved.dispatcher,
        fetch: resolved.fetch,
        // The root's concurrency caps the pool every derived client shares (docs/platforms.md).
        connections: Number.isFinite(resolved.maxConcurrency) ? resolved.maxConcurrency : undefined,
      });
      this.#connection = connection;
      transport = connection.transport;
      family = {
        coordination: resolved.coordination ?? processCoordination(origin, clock),
        coordinated: resolved.coordination !== undefined,
        operations: indexOperations(OPERATIONS),
        sdkHeaders: {
          accept: 'application/json',
          'user-agent': `applicant-verification/${VERSION} ${runtimeName()}`,
        },
        closed: false,
        secretKeys: new Map(),
      };
    }
    this.#family = family;
    this.#transport = transport;
    const account = accountState(resolved, parent);
    this.#account = account;
    const logger = createLogger(
      resolved.logLevel,
      resolved.logger,
      account.secrets,
      parent && resolved.credentials ? { clientId: coordinationKey } : undefined,
    );
    const shared = family.coordinated ? family.coordination : undefined;
    const core = new HttpCore(resolved, {
      transport,
      logger,
      limiter: account.limiter,
      sdkHeaders: family.sdkHeaders,
      secrets: account.secrets,
      account: parent && resolved.credentials ? coordinationKey : undefined,
      noAccount,
      family,
      onRateLimitPause: shared ? (until) => publishPause(shared, coordinationKey, until, logger) : undefined,
    });
    const creates = new Creates({
      core,
      clock,
      logger,
      coordination: family.coordination,
      coordinationKey,
      origin,
      options: resolved,
    });
    const credentials = resolved.credentials;
    let tokens: TokenSource;
    if (account.tokens) tokens = account.tokens;
    else if (credentials) {
      const stored = withTokenStore(
        createTokenExchange(core, credentials),
        resolved.tokenStore,
        credentials.clientId,
        logger,
        () => clock.now(),
        rotation(family, credentials),
      );
      tokens = new TokenManager(
        withCoordinatedExchange(stored, shared, credentials.clientId, creates.budgetMs(), logger),
        logger,
        () => clock.now(),
        stored.reject,
      );
    } else
      tokens = new StaticTokenSource(
        noAccount
          ? () => {
              throw core.noAccountError('auth.getToken()');
            }
          : (resolved.accessToken ?? ''),
      );
    account.tokens = tokens;
    this.#core = core;
    if (parent && shared) {
      // Held weakly: a fleet's coordination must not keep every derived client it ever saw alive.
      const held = new WeakRef(core);
      const stop = sharePauses(
        { pauseUntil: (until) => held.deref()?.pauseUntil(until) },
        shared,
        coordinationKey,
        logger,
      );
      unsubscribeWhenCollected().register(this, stop, this);
      this.#stopPauses = () => {
        unsubscribeWhenCollected().unregister(this);
        stop();
      };
    } else {
      this.#stopPauses = sharePauses(core, shared, coordinationKey, logger);
    }
    core.useTokens(tokens);
    this.applicantGroups = new ApplicantGroups(
      core,
      creates,
      new RentEchoCheck(resolved.apiRentUnit, resolved.rentUnitMismatch, logger),
    );
    this.reports = new Reports(core);
    this.screeningGroups = new ScreeningGroups(core, creates);
    this.webhooks = new Webhooks(resolved.secretKey);
    this.auth = new Auth(tokens);
    ({
      request: this.request,
      get: this.get,
      post: this.post,
    } = rawRequestMethods(
      (call, lookup) =>
        call.safety === 'create' ? creates.send(call, rawRecovery(lookup)) : core.execute(call),
      family.operations,
    ));
  }

  /**
   * A platform's root client, which is no account (docs/platforms.md): it holds the connection
   * pool, the settings, the logger, the clock, the coordination and the token store that every
   * landlord's client shares, and derives those clients with {@link withOptions}. It takes no
   * credentials (and reads none from the environment), and refuses its own calls with a
   * `ConfigurationError` naming `withOptions`, before any I/O, so a stray
   * `root.applicantGroups.create()` creates under no landlord.
   *
   * ```ts
   * const root = VerificationClient.platformRoot({ baseURL, tokenStore, coordination });
   * const landlord = root.withOptions({ clientId: row.clientId, secretKey: row.secretKey });
   * ```
   * @throws {ConfigurationError} for a `clientId`, `secretKey` or `accessToken` option, or any
   *   option an ordinary client refuses.
   */
  static platformRoot<C>(this: new (options: ClientOptions) => C, options: PlatformRootOptions): C {
    buildingPlatformRoot = true;
    try {
      return new this(options as ClientOptions);
    } finally {
      buildingPlatformRoot = false;
    }
  }

  /**
   * A client for another account (or the same account with other per-call behaviour) that shares
   * this client's connection, logger, tracing, clock and coordination, and keeps its own access
   * token, 429 pause and rent-unit state. Deriving does no I/O and costs a few kilobytes, so a
   * platform can hold one per landlord (docs/platforms.md).
   *
   * ```ts
   * const landlord = client.withOptions({ clientId: row.clientId, secretKey: row.secretKey });
   * const slow = client.withOptions({ timeout: 120_000 }); // same account, other behaviour
   * ```
   *
   * The derived client's `close()` releases nothing shared; closing the root closes the
   * connection and every client derived from it.
   * @throws {ConfigurationError} for a connection, clock, logger, coordination or token-store
   *   option (`baseURL`, `fetch`, `dispatcher`, `clock`, ...), or a client id without its secret key.
   */
  withOptions(options: DerivedClientOptions): this {
    const derivation = deriveOptions(this.#options, options);
    const Client = this.constructor as new (options: ClientOptions) => this;
    deriving = {
      family: this.#family,
      transport: this.#transport,
      sameAccount: derivation.sameAccount ? this.#account : undefined,
      noAccount: this.#noAccount,
      maxConcurrencyGiven: options.maxConcurrency !== undefined,
    };
    try {
      return new Client(derivation.options);
    } finally {
      deriving = undefined;
    }
  }

  /**
   * Closes the connections the client opened, so a batch script can exit. Every call made after
   * it is refused with `ClientClosedError`, before any I/O.
   */
  close(): Promise<void> {
    this.#core.close();
    this.#stopPauses();
    if (!this.#connection) return Promise.resolve();
    this.#family.closed = true;
    return this.#connection.close();
  }

  /** @internal Shows where the client points and the account it acts for, never a secret. */
  [INSPECT](): string {
    // Masked as error messages mask it (an id that reads as an email is one).
    const account = this.clientId === undefined ? '' : `, clientId: '${maskText(this.clientId)}'`;
    return `VerificationClient { baseURL: '${this.baseURL}'${account} }`;
  }

  /** @internal */
  toJSON(): Record<string, string> {
    return this.clientId === undefined
      ? { baseURL: this.baseURL }
      : { baseURL: this.baseURL, clientId: this.clientId };
  }
}

/** One account's state in a client: shared with the clients derived for the same account. */
interface AccountState {
  secrets: KnownSecrets;
  /** Its requests in flight and its 429 pause. */
  limiter: Limiter;
  /** Set once the client has built it (the token manager sends through the client's core). */
  tokens: TokenSource | undefined;
}

/**
 * A root's or another account's fresh state; the parent's for a client derived for the same
 * account (its own limiter only when it sets `maxConcurrency` itself).
 */
function accountState(
  resolved: ResolvedOptions,
  parent: { sameAccount: AccountState | undefined; maxConcurrencyGiven: boolean } | undefined,
): AccountState {
  const same = parent?.sameAccount;
  if (same) {
    return parent.maxConcurrencyGiven
      ? {
          secrets: same.secrets,
          limiter: new Limiter(resolved.maxConcurrency, resolved.clock),
          tokens: same.tokens,
        }
      : same;
  }
  const secrets = new KnownSecrets([
    resolved.secretKey,
    typeof resolved.accessToken === 'string' ? resolved.accessToken : undefined,
  ]);
  return { secrets, limiter: new Limiter(resolved.maxConcurrency, resolved.clock), tokens: undefined };
}

/**
 * Whether `credentials` rotate the account's secret key in this family (its client id was given
 * another one before); records the new one either way.
 */
function rotation(family: ClientFamily, credentials: { clientId: string; secretKey: string }): boolean {
  const before = family.secretKeys.get(credentials.clientId);
  family.secretKeys.set(credentials.clientId, credentials.secretKey);
  return before !== undefined && before !== credentials.secretKey;
}

let collected: FinalizationRegistry<() => void> | undefined;

/** Ends the pause subscription of a derived client nobody holds any more (made on first use). */
function unsubscribeWhenCollected(): FinalizationRegistry<() => void> {
  collected ??= new FinalizationRegistry((stop) => stop());
  return collected;
}

/** What `withOptions` hands the constructor of the client it derives (the entries' constructors take options only). */
let deriving:
  | {
      family: ClientFamily;
      transport: Connection['transport'];
      /** The parent's account state, when the derived client acts for the same account. */
      sameAccount: AccountState | undefined;
      /** Whether the derivation sets `maxConcurrency` (a same-account client then gets its own limiter). */
      maxConcurrencyGiven: boolean;
      /** Whether the parent acts for no account (a platform root, or derived from one without credentials). */
      noAccount: boolean;
    }
  | undefined;

/** Set by `platformRoot` for the constructor it calls (the entries' constructors take options only). */
let buildingPlatformRoot = false;

/**
 * What every entry's VerificationClient is: resolves options and wires the core to the resources.
 * The transport comes from the entry's {@link Connector} (client.ts on Node, edge-client.ts on the edge).
 */
import { StaticTokenSource, TokenManager, type TokenSource } from './core/auth.js';
import type { Connector } from './core/connector.js';
import { publishPause, sharePauses, withCoordinatedExchange } from './core/coordinated.js';
import { HttpCore } from './core/http.js';
import { processCoordination } from './core/in-process-coordination.js';
import { INSPECT } from './core/inspect.js';
import { Limiter } from './core/limiter.js';
import { createLogger } from './core/log.js';
import { indexOperations } from './core/operation.js';
import { type ClientOptions, resolveOptions } from './core/options.js';
import {
  type RawGetMethod,
  type RawPostMethod,
  type RawRequestMethod,
  rawRequestMethods,
} from './core/raw-request.js';
import { runtimeName } from './core/runtime.js';
import { KnownSecrets } from './core/secrets.js';
import { createTokenExchange } from './core/token-exchange.js';
import { withTokenStore } from './core/token-store.js';
import { Creates } from './creates/creates.js';
import { rawRecovery } from './creates/unresolved.js';
import { ApplicantGroups } from './resources/applicant-groups.js';
import { Auth } from './resources/auth.js';
import { OPERATIONS } from './resources/operations.js';
import { RentEchoCheck } from './resources/rent-echo.js';
import { Reports } from './resources/reports.js';
import { ScreeningGroups } from './resources/screening-groups.js';
import { Webhooks } from './resources/webhooks.js';
import { VERSION } from './version.js';

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
  readonly #close: () => Promise<void>;
  readonly #stopPauses: () => void;
  readonly #core: HttpCore;

  /** Options default to the `VERIFICATION_*` environment variables; see {@link ClientOptions}. */
  constructor(options: ClientOptions, connector: Connector) {
    const resolved = resolveOptions(options, connector.defaults);
    const secrets = new KnownSecrets([
      resolved.secretKey,
      typeof resolved.accessToken === 'string' ? resolved.accessToken : undefined,
    ]);
    const logger = createLogger(resolved.logLevel, resolved.logger, secrets);
    const clock = resolved.clock;
    const origin = resolved.baseURL.origin;
    // A static token has no client id: its processes coordinate under one shared stand-in.
    const coordinationKey = resolved.credentials?.clientId ?? 'access-token';
    this.baseURL = resolved.baseURL.href;
    const connection = connector.connect(origin, { dispatcher: resolved.dispatcher, fetch: resolved.fetch });
    this.#close = connection.close;
    const shared = resolved.coordination;
    const core = new HttpCore(resolved, {
      transport: connection.transport,
      logger,
      limiter: new Limiter(resolved.maxConcurrency, clock),
      sdkHeaders: {
        accept: 'application/json',
        'user-agent': `applicant-verification/${VERSION} ${runtimeName()}`,
      },
      secrets,
      onRateLimitPause: shared ? (until) => publishPause(shared, coordinationKey, until, logger) : undefined,
    });
    const creates = new Creates({
      core,
      clock,
      logger,
      coordination: shared ?? processCoordination(origin, clock),
      coordinationKey,
      origin,
      options: resolved,
    });
    const tokens: TokenSource = resolved.credentials
      ? new TokenManager(
          withCoordinatedExchange(
            withTokenStore(
              createTokenExchange(core, resolved.credentials),
              resolved.tokenStore,
              resolved.credentials.clientId,
              logger,
              () => clock.now(),
            ),
            resolved.coordination,
            resolved.credentials.clientId,
            creates.budgetMs(),
            logger,
          ),
          logger,
          () => clock.now(),
        )
      : new StaticTokenSource(resolved.accessToken ?? '');
    this.#core = core;
    this.#stopPauses = sharePauses(core, resolved.coordination, coordinationKey, logger);
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
      indexOperations(OPERATIONS),
    ));
  }

  /**
   * Closes the connections the client opened, so a batch script can exit. Every call made after
   * it is refused with `ClientClosedError`, before any I/O.
   */
  close(): Promise<void> {
    this.#core.close();
    this.#stopPauses();
    return this.#close();
  }

  /** @internal Shows where the client points, never its credentials. */
  [INSPECT](): string {
    return `VerificationClient { baseURL: '${this.baseURL}' }`;
  }

  /** @internal */
  toJSON(): Record<string, string> {
    return { baseURL: this.baseURL };
  }
}

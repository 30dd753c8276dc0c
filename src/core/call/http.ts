/**
 * HttpCore: builds each request, sends it through the transport with auth, timeout, retries and
 * pacing, and validates what comes back. Everything resources share lives here, once. The retry
 * decision itself is `retry.ts` (pure), and how a call is named in messages `call-context.ts`. A
 * create that may have reached the server is not settled here: the core hands it back
 * (`reached-server.ts`) to the creates layer (src/creates), which looks it up before any resend.
 */
import type * as z from 'zod';
import { loadZod, zodIfLoaded } from '../../load/zod.js';
import type { Clock } from '../clock.js';
import { decodeErrorBody, excerpt, oversizeDetail, utf8 } from '../error-body.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  AuthenticationError,
  ClientClosedError,
  ResponseTooLargeError,
  ResponseValidationError,
  safeHeaders,
} from '../errors.js';
import type { Logger } from '../observability/log.js';
import { maskText } from '../observability/redact.js';
import { type CallTrace, RAW_REQUEST_OPERATION, traceCall } from '../observability/tracing.js';
import { ConfigurationError, type ResolvedOptions } from '../options.js';
import type { TokenSource } from '../token/auth.js';
import type { KnownSecrets } from '../token/secrets.js';
import { checkFileURL } from '../transport/file-url.js';
import { checkedHeaders } from '../transport/headers.js';
import {
  describeNetworkError,
  type Transport,
  type TransportResponse,
  TransportTimeoutError,
} from '../transport/transport.js';
import { abortError, raceAbort } from './abort.js';
import { APIPromise, type ResponseInfo, type WithResponse } from './api-promise.js';
import {
  BeforeAttemptRefusal,
  type Call,
  copyRecords,
  fillPath,
  isAbsolute,
  mergeExtra,
  type PreparedCall,
  searchOf,
} from './call.js';
import { type CallBudget, CallContext, callBudget, formatDuration } from './call-context.js';
import { coldQuery, preparesCold } from './cold-call.js';
import { fastCheck } from './compiled.js';
import { type Limiter, QueueTimeoutError } from './limiter.js';
import { loopTurn } from './loop-turn.js';
import { MayHaveReachedServerError } from './reached-server.js';
import {
  BACKOFF,
  backoffMs,
  failureOf,
  mayHaveReachedServer,
  type RetrySafety,
  rateLimitPauseMs,
  retryVerdict,
} from './retry.js';
import { parseRequest, parseResponse } from './validate.js';

export type { Call, RequestOptions } from './call.js';

import type { RequestOptions } from './call.js';

/** The resolved client options the core reads (the client passes its {@link ResolvedOptions} itself). */
export type CoreOptions = Pick<
  ResolvedOptions,
  | 'baseURL'
  | 'timeout'
  | 'maxRetries'
  | 'deadline'
  | 'maxResponseBytes'
  | 'validation'
  | 'clock'
  | 'defaultHeaders'
>;

/** What the client builds for its core from those options: the parts that are objects, not settings. */
export interface CoreWiring {
  transport: Transport;
  /** Where lines go; `debugEnabled: false` says debug lines are dropped, so none are built. */
  logger: Logger & { readonly debugEnabled?: boolean };
  limiter: Limiter;
  /** The SDK's own headers (accept, user-agent). */
  sdkHeaders: Record<string, string>;
  /** The client's secret key and tokens, scrubbed from whatever server text errors repeat. */
  secrets: KnownSecrets;
  /**
   * The client id a derived client acts for (docs/platforms.md): named in its error messages and
   * traces. `undefined` for a root client, whose messages stay as they were.
   */
  account?: string | undefined;
  /**
   * Set for a platform root and the clients derived from it without credentials
   * (docs/platforms.md): they act for no account, so every call is refused before any I/O.
   */
  noAccount?: boolean | undefined;
  /** The family a client belongs to: once its root is closed, every member refuses calls. */
  family?: { readonly closed: boolean } | undefined;
  /** Called with the end of each client-wide 429 pause (epoch ms), to publish it to the fleet. */
  onRateLimitPause?: ((untilEpochMs: number) => void) | undefined;
}

const EMPTY_BODY = Symbol('empty body');
/** {@link HttpCore.#retryDelay}'s answer for the replay after a 401: at once, not counted as an attempt. */
const REPLAY_NOW = -1;
/** The options of a call given none (shared: read, never written). */
const NO_OPTIONS: RequestOptions = Object.freeze({});

function responseInfo(response: TransportResponse, keepCredentials: boolean): ResponseInfo {
  const headers = keepCredentials ? response.headers : safeHeaders(response.headers);
  return { status: response.status, headers, requestId: response.headers['x-request-id'] };
}

/** The response headers an error's retry decision reads (a token failure carries the auth endpoint's). */
function retryHeadersOf(error: unknown): Record<string, string> {
  if (error instanceof APIError) return error.headers;
  if (error instanceof APIConnectionError && error.cause instanceof APIError) return error.cause.headers;
  return {};
}

/** Sends calls described by resources. */
export class HttpCore {
  readonly #options: CoreOptions;
  readonly #wiring: CoreWiring;
  /** The base URL's origin, and its path prefix without a trailing slash (often `''`). */
  readonly #origin: string;
  readonly #basePath: string;
  /** Whether debug lines are written: they are built (paths masked) only then. */
  readonly #debug: boolean;
  #tokens: TokenSource | undefined;
  /** The caller's `defaultHeaders` as they were when the client was made (checked on the first call). */
  readonly #defaultHeaders: Record<string, string>;
  /**
   * The SDK's headers and the checked {@link #defaultHeaders} (names lowercased): every API
   * request starts from a copy. Built by the first call's check, which refuses any header the SDK
   * sets, in any spelling (headers.ts).
   */
  #baseHeaders: Record<string, string> | undefined;

  constructor(options: CoreOptions, wiring: CoreWiring) {
    this.#options = options;
    this.#wiring = wiring;
    this.#origin = options.baseURL.origin;
    this.#basePath = options.baseURL.pathname.replace(/\/+$/, '');
    this.#debug = wiring.logger.debugEnabled ?? true;
    this.#defaultHeaders = copyRecords(options.defaultHeaders);
  }

  /** The logger, for resources and helpers that report through the same channel. */
  get logger(): Logger {
    return this.#wiring.logger;
  }

  /** The clock the core waits with (resources poll with it too). */
  get clock(): Clock {
    return this.#options.clock;
  }

  /** The base URL's path prefix, without a trailing slash. */
  get basePath(): string {
    return this.#basePath;
  }

  /** The base URL's origin. */
  get origin(): string {
    return this.#origin;
  }

  /** Installs the token source (it is built after the core, since it calls the core itself). */
  useTokens(tokens: TokenSource): void {
    this.#tokens = tokens;
  }

  /** Set by {@link close}: every later call is refused before any I/O. */
  #closed = false;

  /**
   * Refuses every later call with {@link ClientClosedError} (the client's `close()` calls it
   * before closing the connections): a call after close must not reopen a pool nobody will close.
   */
  close(): void {
    this.#closed = true;
  }

  /** Runs a call: the request starts at once; the result is an {@link APIPromise}. */
  request<S extends z.ZodType>(call: Call<S>): APIPromise<z.output<S>> {
    return new APIPromise(this.execute(call));
  }

  /** Like {@link request}, resolving to `{ data, response }` directly. Published on the call's tracing channel. */
  execute<S extends z.ZodType>(call: Call<S>): Promise<WithResponse<z.output<S>>> {
    return this.traced(call, (trace) => this.#run(call, trace, undefined));
  }

  /**
   * Runs `run` as the call's span on its operation's tracing channel; a closed client refuses it
   * before any I/O. The creates layer opens a create's span here, and sends within it through
   * {@link send}, so a create and its lookups read as one operation.
   */
  traced<S extends z.ZodType, T>(call: Call<S>, run: (trace: CallTrace) => Promise<T>): Promise<T> {
    if (this.#isClosed()) return this.#refuseClosed(call);
    if (this.#wiring.noAccount === true) return Promise.reject(this.#refuseNoAccount(call));
    const operation = call.operation ?? RAW_REQUEST_OPERATION;
    const path = call.pathTemplate ?? call.path;
    return traceCall({ operation, method: call.method, path, clientId: this.#wiring.account }, run);
  }

  /**
   * Sends a call within a span {@link traced} opened, continuing `resumed` (the context a
   * {@link MayHaveReachedServerError} handed back) when given: the attempts and the deadline go on
   * from there. A create (`safety: 'create'`) whose attempt may have reached the server rejects
   * with that error instead of being resent: its caller, the creates layer, decides.
   */
  send<S extends z.ZodType>(
    call: Call<S>,
    trace: CallTrace,
    resumed: CallContext | undefined,
  ): Promise<WithResponse<z.output<S>>> {
    if (this.#isClosed()) return this.#refuseClosed(call);
    if (this.#wiring.noAccount === true) return Promise.reject(this.#refuseNoAccount(call));
    return this.#run(call, trace, resumed);
  }

  /** Whether this client, or the root of its family, has been closed. */
  #isClosed(): boolean {
    return this.#closed || this.#wiring.family?.closed === true;
  }

  /**
   * The error a client that acts for no account (a platform root) refuses `what` (a call, a
   * create) with, or `undefined` for a client of an account. The creates layer asks before it
   * takes a lease.
   */
  noAccountError(what: string): ConfigurationError | undefined {
    if (this.#wiring.noAccount !== true) return undefined;
    return new ConfigurationError(
      `${what} refused: this client is a platform root and acts for no account, so it sends nothing itself. Derive the account's client and call that: root.withOptions({ clientId, secretKey }).`,
    );
  }

  #refuseNoAccount(call: Call<z.ZodType>): ConfigurationError | undefined {
    return this.noAccountError(`${call.method} ${maskText(call.pathTemplate ?? call.path)}`);
  }

  /** The answer to any call once the client is closed. */
  #refuseClosed(call: Call<z.ZodType>): Promise<never> {
    return Promise.reject(
      new ClientClosedError(`${call.method} ${maskText(call.pathTemplate ?? call.path)}`),
    );
  }

  async #run<S extends z.ZodType>(
    call: Call<S>,
    trace: CallTrace,
    resumed: CallContext | undefined,
  ): Promise<WithResponse<z.output<S>>> {
    if (needsZodFirst(call)) await loadZod();
    const prepared = this.#prepare(call);
    const client = this.#options;
    const options = call.options ?? NO_OPTIONS;
    const safety = call.safety ?? (call.method === 'GET' ? 'read' : 'create');
    const budget = callBudget(client, options);
    const context =
      resumed ??
      new CallContext(
        call.method,
        () => this.#displayPath(prepared),
        () => this.#host(prepared),
        { maxAttempts: budget.maxRetries + 1, totalMs: budget.totalMs },
        client.clock,
      );
    const signal = options.signal;
    for (;;) {
      if (signal?.aborted) throw abortError(signal, context.label);
      context.startAttempt();
      let token: string | undefined;
      try {
        // A token in hand costs no promise; only an exchange (or a provider) is awaited.
        token = this.#wantsAuth(call)
          ? (this.#tokenInHand() ?? (await this.#token(context, signal)))
          : undefined;
        return await this.#sendAttempt(prepared, context, budget, token, trace);
      } catch (error) {
        if (signal?.aborted) throw abortError(signal, context.label);
        const delay = this.#retryDelay(error, token, context, budget, safety);
        if (delay === REPLAY_NOW) {
          trace.retry(context.attempts, error, 0);
          continue;
        }
        this.#wiring.logger.warn(context.retryLine(delay, error));
        trace.retry(context.attempts, error, delay);
        await client.clock.sleep(delay, signal);
      }
    }
  }

  /**
   * One attempt, its answer accepted or turned into the status's error. A deadline the caller set
   * cuts the attempt short; the default one bounds the waits only.
   */
  async #sendAttempt<S extends z.ZodType>(
    prepared: PreparedCall<S>,
    context: CallContext,
    budget: CallBudget,
    token: string | undefined,
    trace: CallTrace,
  ): Promise<WithResponse<z.output<S>>> {
    const attemptMs =
      budget.explicitDeadline === undefined ? budget.timeout : Math.min(budget.timeout, context.remaining());
    const response = await trace.measure(
      context.attempts,
      this.#attempt(prepared, context, token, budget.timeout, attemptMs),
    );
    if (response.status >= 200 && response.status < 300) return this.#accept(prepared, response);
    throw this.#statusError(prepared.call, context, response);
  }

  /**
   * One unauthenticated attempt in a span of its own, without the retry loop: the token exchange
   * an attempt of another call makes on its behalf. That call's budget decides whether to try
   * again, so the exchange never enters {@link execute} (whose loop would nest in the caller's).
   */
  sendOnce<S extends z.ZodType>(call: Call<S>): Promise<WithResponse<z.output<S>>> {
    return this.traced(call, async (trace) => {
      if (needsZodFirst(call)) await loadZod();
      const prepared = this.#prepare(call);
      const budget = callBudget(this.#options, call.options ?? NO_OPTIONS);
      const context = new CallContext(
        call.method,
        () => this.#displayPath(prepared),
        () => this.#host(prepared),
        { maxAttempts: 1, totalMs: budget.totalMs },
        this.#options.clock,
      );
      context.startAttempt();
      return this.#sendAttempt(prepared, context, budget, undefined, trace);
    });
  }

  /**
   * What follows a failed attempt: the wait before the next one, or {@link REPLAY_NOW} (the one
   * replay after a 401, with a fresh token). Throws when the call ends here: the failure itself,
   * or, for a create that may have reached the server, a {@link MayHaveReachedServerError}.
   */
  #retryDelay(
    error: unknown,
    token: string | undefined,
    context: CallContext,
    budget: CallBudget,
    safety: RetrySafety,
  ): number {
    if (error instanceof AuthenticationError && token !== undefined && this.#canReplay(context)) {
      // One refresh and one replay: the token may have expired in flight.
      this.#tokens?.invalidate(token);
      context.replayedAfter401 = true;
      context.freeReplay = true;
      context.reachedServer = true;
      if (safety === 'create')
        throw new MayHaveReachedServerError(error, context, budget, {
          kind: 'resendable',
          delayMs: 0,
          replay: true,
        });
      return REPLAY_NOW;
    }
    const failure = failureOf(error);
    if (!failure) throw error;
    const verdict = retryVerdict(failure, safety);
    if (verdict === 'fail') throw error;
    if (mayHaveReachedServer(failure)) context.reachedServer = true;
    if (verdict === 'ambiguous')
      throw new MayHaveReachedServerError(error, context, budget, { kind: 'ambiguous' });
    const delay = backoffMs(
      context.attempts - 1,
      retryHeadersOf(error),
      Math.random,
      this.#options.clock.now(),
    );
    // Out of attempts, a Retry-After beyond the cap, or a wait past the deadline: no resend.
    const inBudget = context.hasAttemptsLeft() && delay !== undefined && delay < context.remaining();
    if (safety === 'create' && context.reachedServer) {
      throw new MayHaveReachedServerError(error, context, budget, {
        kind: 'resendable',
        delayMs: inBudget ? delay : undefined,
        replay: false,
      });
    }
    if (delay === undefined || !inBudget) throw error;
    return delay;
  }

  /** Whether a 401 may be replayed once with a fresh token. */
  #canReplay(context: CallContext): boolean {
    return !context.replayedAfter401 && this.#tokens?.canRefresh === true;
  }

  /** Pauses the whole client (and, through `onRateLimitPause`, its fleet); above the cap, nothing. */
  #pause(ms: number | undefined): void {
    if (ms === undefined) return;
    this.#wiring.limiter.pauseFor(ms);
    this.#wiring.onRateLimitPause?.(this.#options.clock.now() + ms);
  }

  /**
   * Holds this client's requests until `untilEpochMs` (a pause another process published, on its
   * clock), capped like a local pause (`Retry-After` above the cap is not waited for): a publisher
   * whose clock runs ahead cannot hold this process longer than any 429 could.
   */
  pauseUntil(untilEpochMs: number): void {
    const ms = Math.min(untilEpochMs - this.#options.clock.now(), BACKOFF.maxRetryAfterMs);
    if (ms > 0) this.#wiring.limiter.pauseFor(ms);
  }

  /** Checks path parameters, query and body before any I/O; the prepared call carries wire values. */
  #prepare<S extends z.ZodType>(call: Call<S>): PreparedCall<S> {
    this.#checkDefaultHeaders();
    const headers = call.options?.headers ? checkedHeaders(call.options.headers, 'headers') : undefined;
    const path = call.pathParams ? fillPath(call.path, call.pathParams) : call.path;
    const parsedQuery =
      coldQuery(call) ??
      (call.querySchema ? parseRequest(call.querySchema, call.query ?? {}, 'Invalid parameters') : undefined);
    const query = mergeExtra(parsedQuery, call.options?.extraQuery, 'extraQuery');
    let body = call.bodySchema ? parseRequest(call.bodySchema, call.body, 'Invalid request body') : call.body;
    if (call.options?.extraBody && body !== null && typeof body === 'object' && !Array.isArray(body)) {
      body = mergeExtra(body as Record<string, unknown>, call.options.extraBody, 'extraBody');
    }
    // A new object, not `{ ...call, path, ... }`: see PreparedCall.
    return { call, path, search: query ? searchOf(query) : '', body, headers };
  }

  /**
   * Resolves a file link the API handed out (a PDF link) and checks it: `https:` only, or `http:`
   * when the API itself is plain http on loopback (the mock). Anything else is refused before
   * any request: a link to `file:` or `data:` is not a download.
   */
  fileURL(url: string, field = 'pdf_url'): string {
    return checkFileURL(url, this.#origin, this.#basePath, field);
  }

  /**
   * Checks the client's `defaultHeaders` on the first call (and again on each call while they
   * fail), and builds {@link #baseHeaders} from them once they pass: the copy taken at
   * construction never changes.
   */
  #checkDefaultHeaders(): void {
    if (this.#baseHeaders !== undefined) return;
    const checked = checkedHeaders(this.#defaultHeaders, 'defaultHeaders');
    this.#baseHeaders = copyRecords(this.#wiring.sdkHeaders, checked);
  }

  #wantsAuth(call: Call<z.ZodType>): boolean {
    return call.auth ?? !isAbsolute(call.path);
  }

  /** The current token when the source has one at once (remembered among the secrets to scrub). */
  #tokenInHand(): string | undefined {
    const token = this.#tokens?.current();
    if (token !== undefined) this.#wiring.secrets.addToken(token);
    return token;
  }

  /**
   * The token for an attempt. A cancelled call stops waiting, while the shared refresh goes on
   * for others. A failed exchange that could pass with time becomes a connection error saying
   * nothing was sent, so the caller's budget decides whether to try again.
   */
  async #token(context: CallContext, signal: AbortSignal | undefined): Promise<string> {
    if (!this.#tokens) throw new Error('HttpCore has no token source');
    let token: string;
    try {
      // Without a signal there is nothing to race (and no label to build: it masks the path).
      token = signal ? await raceAbort(this.#tokens.get(), signal, context.label) : await this.#tokens.get();
    } catch (error) {
      if (signal?.aborted) throw abortError(signal, context.label);
      const failure = failureOf(error);
      if (failure && retryVerdict(failure, 'read') === 'retry') {
        throw new APIConnectionError(
          `${context.label}: could not get an access token, so nothing was sent (${context.progress()}): ${error instanceof Error ? error.message : String(error)}`,
          { cause: error, requestNotSent: true },
        );
      }
      throw error;
    }
    this.#wiring.secrets.addToken(token);
    return token;
  }

  /** `host[:port]`, and for a derived client the account: `api.example.com (account landlord-7)`. */
  #host(prepared: PreparedCall<z.ZodType>): string {
    const host = isAbsolute(prepared.path) ? new URL(prepared.path).host : new URL(this.#origin).host;
    const account = this.#wiring.account;
    return account === undefined ? host : `${host} (account ${maskText(account)})`;
  }

  /** The path as messages show it: base path included, query masked; a file link's query (its signature) dropped. */
  #displayPath(prepared: PreparedCall<z.ZodType>): string {
    if (isAbsolute(prepared.path)) return maskText(new URL(prepared.path).pathname);
    return maskText(`${this.#basePath}${prepared.path}${prepared.search}`);
  }

  #statusError(call: Call<z.ZodType>, context: CallContext, response: TransportResponse): APIError {
    const status = response.status;
    const redirect = status >= 300 && status < 400 ? 'The SDK follows no redirects.' : undefined;
    const secrets = this.#wiring.secrets;
    const oversize = oversizeDetail(response.body);
    return APIError.from({
      status,
      headers: response.headers,
      body: secrets.scrubDeep(decodeErrorBody(response.body)),
      message: oversize === undefined ? undefined : secrets.scrub(oversize),
      method: call.method,
      path: context.path,
      context: `${context.host}, ${context.progress()}`,
      hint: call.hints?.[status] ?? redirect,
    });
  }

  /**
   * One HTTP attempt. Not an async function: a promise chain costs one promise and one hop fewer
   * per call (docs/benchmarks.md, round 4). Whatever goes wrong before the request leaves is a
   * rejection, as it would be from an async function.
   */
  #attempt(
    prepared: PreparedCall<z.ZodType>,
    context: CallContext,
    token: string | undefined,
    timeout: number,
    attemptMs: number,
  ): Promise<TransportResponse> {
    const wiring = this.#wiring;
    const call = prepared.call;
    let origin = this.#origin;
    let path: string;
    let headers: Record<string, string>;
    let body: string | undefined;
    try {
      if (isAbsolute(prepared.path)) {
        const url = new URL(prepared.path);
        origin = url.origin;
        path = `${url.pathname}${url.search}`;
        // A file host gets none of the caller's headers: they may carry credentials of their own.
        headers = { 'user-agent': wiring.sdkHeaders['user-agent'] ?? 'applicant-verification' };
      } else {
        path = `${this.#basePath}${prepared.path}${prepared.search}`;
        // Caller names are lowercased and none is the SDK's (headers.ts): nothing below is replaced.
        headers = copyRecords(this.#baseHeaders, prepared.headers);
      }
      if (token !== undefined) headers.authorization = `Bearer ${token}`;
      if (prepared.body !== undefined) {
        body = JSON.stringify(prepared.body);
        headers['content-type'] = 'application/json';
      }
    } catch (error) {
      return Promise.reject(error);
    }

    const signal = call.options?.signal;
    if (attemptMs <= 0) {
      return Promise.reject(
        new APIConnectionTimeoutError(
          `${context.label} ran out of time before this attempt (${context.progress()}); nothing was sent.`,
          { requestNotSent: true },
        ),
      );
    }
    // The transport enforces the deadline (no AbortController and timer of our own per attempt);
    // time spent waiting for a limiter slot counts against it.
    const started = performance.now();
    let pending: Promise<TransportResponse>;
    try {
      const transport = () =>
        wiring
          .transport({
            method: call.method,
            origin,
            path,
            headers,
            body,
            signal,
            timeout: attemptMs - (performance.now() - started),
            maxResponseBytes: this.#options.maxResponseBytes,
          })
          .then((answer) => {
            // Pause the whole client before this slot frees, so no queued request slips through.
            if (answer.status === 429)
              this.#pause(rateLimitPauseMs(answer.headers, this.#options.clock.now()));
            return answer;
          });
      const before = call.beforeAttempt;
      pending = wiring.limiter.run(
        before === undefined
          ? transport
          : () => checkedAttempt(before, transport, context, attemptMs, started),
        { signal, maxWaitMs: attemptMs },
      );
    } catch (error) {
      pending = Promise.reject(error);
    }
    return pending.then(
      (response) => {
        if (this.#debug) {
          wiring.logger.debug(`${call.method} ${context.path} → ${response.status}`, {
            attempt: context.attempts,
            durationMs: Math.round(performance.now() - started),
            requestId: response.headers['x-request-id'],
          });
        }
        return response;
      },
      (error: unknown) => {
        throw this.#attemptFailure(error, context, signal, started, timeout, attemptMs);
      },
    );
  }

  /** What a failed attempt throws: the caller's abort, a timeout or connection error saying whether anything was sent. */
  #attemptFailure(
    error: unknown,
    context: CallContext,
    signal: AbortSignal | undefined,
    started: number,
    timeout: number,
    attemptMs: number,
  ): unknown {
    if (error instanceof BeforeAttemptRefusal) return error.reason;
    if (signal?.aborted) return abortError(signal, context.label);
    if (error instanceof ResponseTooLargeError) return error;
    if (error instanceof QueueTimeoutError) {
      return new APIConnectionTimeoutError(
        `${context.label} timed out after ${formatDuration(error.waitedMs)} waiting for a free slot (maxConcurrency) or the end of a rate-limit pause (${context.progress()}); nothing was sent.`,
        { cause: error, requestNotSent: true },
      );
    }
    if (error instanceof TransportTimeoutError) {
      return new APIConnectionTimeoutError(
        `${context.label} timed out after ${formatDuration(attemptMs)} (${attemptMs < timeout ? `cut short by the call's deadline, timeout ${formatDuration(timeout)}; ` : ''}${context.progress()})${error.requestSent ? '' : '; nothing was sent'}.`,
        { cause: error, requestNotSent: !error.requestSent },
      );
    }
    const network = describeNetworkError(error);
    const connectionError = new APIConnectionError(
      `${context.label} failed: ${this.#wiring.secrets.scrub(network.reason)} (${context.progress()})${network.requestNotSent ? '; nothing was sent' : ''}.`,
      { cause: error, requestNotSent: network.requestNotSent },
    );
    if (this.#debug) {
      this.#wiring.logger.debug(connectionError.message, {
        attempt: context.attempts,
        durationMs: Math.round(performance.now() - started),
      });
    }
    return connectionError;
  }

  #accept<S extends z.ZodType>(
    prepared: PreparedCall<S>,
    response: TransportResponse,
  ): WithResponse<z.output<S>> | Promise<WithResponse<z.output<S>>> {
    const call = prepared.call;
    const info = responseInfo(response, call.keepCredentialHeaders === true);
    if (call.responseType === 'bytes') {
      return { data: parseResponse(call.schema, new Uint8Array(response.body)), response: info };
    }
    // Built only for an error: masking the path runs regular expressions over it.
    const label = () => `${call.method} ${this.#displayPath(prepared)}`;
    let json: unknown = EMPTY_BODY;
    if (response.body.length > 0) {
      try {
        json = JSON.parse(utf8(response.body));
      } catch {
        throw new ResponseValidationError(
          [{ path: '', message: 'Response body is not valid JSON', code: 'invalid_json' }],
          this.#wiring.secrets.scrub(excerpt(response.body)),
          `Unexpected response to ${label()}`,
        );
      }
    }
    const value = json === EMPTY_BODY ? undefined : json;
    // A body the build-time check accepts needs no zod; any other is zod's to judge, once loaded.
    if (call.cold?.response(value) === true) return { data: value as z.output<S>, response: info };
    if (zodIfLoaded() === undefined) {
      return loadZod().then(() => this.#validated(call, value, info, label));
    }
    return this.#validated(call, value, info, label);
  }

  /** The body checked by the SDK's compiled check, else by zod (zod is loaded). */
  #validated<S extends z.ZodType>(
    call: Call<S>,
    value: unknown,
    info: ResponseInfo,
    label: () => string,
  ): WithResponse<z.output<S>> {
    // The common case, a body the SDK's compiled check accepts, builds no message closures.
    if (call.callerSchema !== true && fastCheck(call.schema)?.(value) === true) {
      return { data: value as z.output<S>, response: info };
    }
    const data = parseResponse(call.schema, value, {
      mode: this.#options.validation,
      logger: this.#wiring.logger,
      context: () => `Unexpected response to ${label()}`,
      // The compiled check, where the schema has one, has already said no: zod's own parse decides
      // (and words the issues) without running the check a second time.
      compiledCheckFirst: false,
      scrub: (raw) => this.#wiring.secrets.scrubDeep(raw),
    });
    return { data, response: info };
  }
}

/**
 * An attempt of a call with a {@link Call.beforeAttempt} hook: the hook, one turn of the event loop
 * (loop-turn.ts: sockets the server closed while the process could not run are dropped first),
 * then the transport, unless the attempt's time ran out meanwhile (nothing is sent then). What
 * stops it before the transport is a {@link BeforeAttemptRefusal}, handed back unchanged.
 */
async function checkedAttempt(
  before: NonNullable<Call<z.ZodType>['beforeAttempt']>,
  transport: () => Promise<TransportResponse>,
  context: CallContext,
  attemptMs: number,
  started: number,
): Promise<TransportResponse> {
  try {
    await before({ timeoutMs: attemptMs - (performance.now() - started) });
    await loopTurn();
  } catch (reason) {
    throw new BeforeAttemptRefusal(reason);
  }
  // The check (or a pause of the process while it ran) may have used up the attempt's time.
  if (attemptMs - (performance.now() - started) <= 0) {
    throw new BeforeAttemptRefusal(
      new APIConnectionTimeoutError(
        `${context.label} ran out of time before this attempt left (${context.progress()}); nothing was sent.`,
        { requestNotSent: true },
      ),
    );
  }
  return transport();
}

/** Whether zod must be loaded before `call` is prepared: it is not yet, and the call's cold checks do not cover it. */
function needsZodFirst(call: Call<z.ZodType>): boolean {
  return zodIfLoaded() === undefined && !preparesCold(call);
}

/**
 * Operation descriptors: what one API endpoint is, declared once by its resource (name, method,
 * path template, wire schemas, create policy, a one-line doc). The core sends any descriptor it is
 * handed and names none itself; tracing, raw requests, the README's endpoint table and the
 * OpenAPI document all read the descriptors (CONTRIBUTING.md, "A new endpoint").
 */
import type * as z from 'zod';
import type { OperationName } from '../observability/tracing.js';
import type { Call, ColdChecks, RequestOptions } from './call.js';
import type { RetrySafety } from './retry.js';

/**
 * How a create (a POST that makes something and may email applicants) is settled after an
 * ambiguous failure: `lookup` finds what it made by the caller's `correlation_id`; `none` cannot,
 * so the SDK never resends it and reports that it may have been created.
 */
export type CreatePolicy = 'lookup' | 'none';

/** One API operation, as its resource declares it. */
export interface OperationDescriptor<
  Name extends string = string,
  Response extends z.ZodType = z.ZodType,
  Query extends z.ZodType<Record<string, string>> | undefined = z.ZodType<Record<string, string>> | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
> {
  /** The operation's name, `<resource>.<method>`: its tracing channel. */
  readonly name: Name;
  /** HTTP method. */
  readonly method: 'GET' | 'POST';
  /** Path template under the base URL; `{name}` placeholders are filled from path parameters. */
  readonly path: string;
  /** Checks the caller's query; its input is what callers pass, its output the wire query strings. */
  readonly query?: Query;
  /** Checks the caller's JSON body; its input is what callers pass, its output the wire body. */
  readonly body?: Body;
  /** Validates the response; its input is the wire body, its output what the SDK returns. */
  readonly response: Response;
  /** For a create: how an ambiguous failure is settled. A POST without one is still never resent blindly. */
  readonly create?: CreatePolicy;
  /**
   * The operation's checks generated at build time (src/resources/cold-checks.generated.ts), for
   * the calls a cold process makes first: they run without loading zod.
   */
  readonly cold?: ColdChecks;
  /** Declares a POST free of side effects (a search), so it retries like a GET. */
  readonly idempotent?: boolean;
  /** One line saying what the operation does (README, OpenAPI `summary`). */
  readonly doc: string;
}

/** Any descriptor, whatever its schemas. */
export type AnyOperation = OperationDescriptor<
  string,
  z.ZodType,
  z.ZodType<Record<string, string>> | undefined,
  z.ZodType | undefined
>;

/** Declares an operation; the name keeps its literal type, so a registry can list the names. */
export function defineOperation<
  const Name extends string,
  Response extends z.ZodType,
  Query extends z.ZodType<Record<string, string>> | undefined = undefined,
  Body extends z.ZodType | undefined = undefined,
>(
  descriptor: OperationDescriptor<Name, Response, Query, Body>,
): OperationDescriptor<Name, Response, Query, Body> {
  return Object.freeze(descriptor);
}

/** What a resource method passes besides the descriptor. */
export interface OperationInput {
  /** Values of the path template's `{name}` placeholders, checked and URL-encoded. */
  pathParams?: Record<string, unknown>;
  /** The caller's query (checked by the descriptor's `query` schema). */
  query?: unknown;
  /** The caller's body (checked by the descriptor's `body` schema). */
  body?: unknown;
  /**
   * The body was checked already and is the wire body (a create's is checked once, before its
   * lease is taken): the core sends it as it is.
   */
  bodyChecked?: boolean;
  /** Per-call options. */
  options?: RequestOptions | undefined;
  /** Runs just before each attempt leaves (see {@link Call.beforeAttempt}). */
  beforeAttempt?: Call<z.ZodType>['beforeAttempt'];
}

type AnyDescriptor<S extends z.ZodType> = OperationDescriptor<
  string,
  S,
  z.ZodType<Record<string, string>> | undefined,
  z.ZodType | undefined
>;

/** The core call of one use of `operation`: traced under its name, retried per its method and create policy. */
export function operationCall<S extends z.ZodType>(
  operation: AnyDescriptor<S>,
  input: OperationInput = {},
): Call<S> {
  return new OperationCall(operation, input);
}

/**
 * One use of an operation. Its schemas are read from the descriptor when the core first needs
 * them: a descriptor builds them on first use, with zod, which a call its cold checks cover never
 * loads (src/core/call/cold-call.ts). Getters of a class, not of an object literal: a literal's getters
 * are new functions for every call, and made the per-call path a quarter slower (bench/in-memory.ts).
 */
class OperationCall<S extends z.ZodType> implements Call<S> {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly pathParams: Record<string, unknown> | undefined;
  readonly query: unknown;
  readonly body: unknown;
  readonly cold: ColdChecks | undefined;
  readonly options: RequestOptions | undefined;
  readonly safety: RetrySafety;
  readonly operation: OperationName;
  readonly beforeAttempt: Call<S>['beforeAttempt'];
  readonly #descriptor: AnyDescriptor<S>;
  readonly #bodyChecked: boolean;

  constructor(descriptor: AnyDescriptor<S>, input: OperationInput) {
    this.method = descriptor.method;
    this.path = descriptor.path;
    this.pathParams = input.pathParams;
    this.query = input.query;
    this.body = input.body;
    this.cold = descriptor.cold;
    this.options = input.options;
    this.safety = descriptor.method === 'GET' || descriptor.idempotent === true ? 'read' : 'create';
    this.operation = descriptor.name;
    this.beforeAttempt = input.beforeAttempt;
    this.#descriptor = descriptor;
    this.#bodyChecked = input.bodyChecked === true;
  }

  get querySchema(): z.ZodType<Record<string, string>> | undefined {
    return this.#descriptor.query;
  }

  get bodySchema(): z.ZodType | undefined {
    return this.#bodyChecked ? undefined : this.#descriptor.body;
  }

  get schema(): S {
    return this.#descriptor.response;
  }
}

/** The `{name}` placeholders of a path template, in order. */
export function pathParamsOf(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '');
}

/** Finds the operation a concrete request stands for: a path is matched segment by segment against each template. */
export type OperationIndex = (method: string, path: string) => AnyOperation | undefined;

/** An {@link OperationIndex} over `operations`. */
export function indexOperations(operations: readonly AnyOperation[]): OperationIndex {
  const matchers = operations.map((operation) => {
    const pattern = operation.path
      .split(/\{\w+\}/)
      .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]+');
    return { operation, pattern: new RegExp(`^${pattern}$`) };
  });
  return (method, path) =>
    matchers.find(({ operation, pattern }) => operation.method === method && pattern.test(path))?.operation;
}

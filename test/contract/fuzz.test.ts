/**
 * A schema-driven fuzz of the strict mock (`createMockServer({ strict: true })`) over loopback:
 * requests generated with fast-check from openapi.json's own operations (valid bodies and queries
 * drawn from the document's schemas, and invalid ones: unknown keys, nulls, wrong types, values
 * outside an enum, missing required fields, other content types, malformed JSON, wrong methods,
 * bad query values, unknown ids, missing or bad tokens), seeded and so the same on every run.
 *
 * Every answer is held to the document by an independent validator (ajv): no 5xx, no status the
 * operation does not list (`default` alone does not count), no body its schema refuses, and no
 * 2xx for a request the document refuses.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, DEFAULT_START_TIME, type MockServer } from '../../src/testing/index.js';
import { contractProblems } from '../support/openapi-contract.js';
import { DOCUMENT } from './prism.js';

/** Requests sent; each is one fast-check sample of the seeded stream. */
const REQUESTS = 3000;
const SEED = 39;

type Json = { [key: string]: unknown };
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

interface Operation {
  method: string;
  template: string;
  pointer: string;
  parameters: Json[];
  body: Json | undefined;
  responses: Json;
}

const document: Json = JSON.parse(readFileSync(DOCUMENT, 'utf8'));
const paths = isObject(document.paths) ? document.paths : {};

function resolve(schema: Json): Json {
  let current = schema;
  while (typeof current.$ref === 'string') {
    let target: unknown = document;
    for (const part of current.$ref.replace(/^#\//, '').split('/'))
      target = isObject(target) ? target[part] : undefined;
    current = isObject(target) ? target : {};
  }
  return current;
}

const OPERATIONS: Operation[] = Object.entries(paths).flatMap(([template, item]) =>
  Object.entries(isObject(item) ? item : {}).flatMap(([method, raw]) => {
    if (!isObject(raw)) return [];
    const requestBody = isObject(raw.requestBody) ? resolve(raw.requestBody) : {};
    const content = isObject(requestBody.content) ? requestBody.content : {};
    const json = isObject(content['application/json']) ? content['application/json'] : {};
    return [
      {
        method: method.toUpperCase(),
        template,
        pointer: template.replaceAll('~', '~0').replaceAll('/', '~1'),
        parameters: (Array.isArray(raw.parameters) ? raw.parameters : []).filter(isObject).map(resolve),
        body: isObject(json.schema) ? json.schema : undefined,
        responses: isObject(raw.responses) ? raw.responses : {},
      },
    ];
  }),
);

// ajv over the document (as test/support/openapi-contract.ts builds it for answers), for requests.
const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats.default(ajv);
ajv.addSchema({ $id: 'openapi.json', components: document.components, paths: document.paths });
const requestChecks = new Map<Operation, ValidateFunction>();
function bodyIsValid(operation: Operation, body: unknown): boolean {
  let check = requestChecks.get(operation);
  if (!check) {
    check = ajv.compile({
      $ref: `openapi.json#/paths/${operation.pointer}/${operation.method.toLowerCase()}/requestBody/content/application~1json/schema`,
    });
    requestChecks.set(operation, check);
  }
  return check(body);
}

/** Whether an operation's responses list `status`, by its code or its range (`4XX`); `default` does not count. */
function listsStatus(responses: Json, status: number): boolean {
  return String(status) in responses || `${String(status)[0]}XX` in responses;
}

/** Values a schema accepts (the subset of JSON Schema the document uses). */
function valid(raw: Json, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(raw);
  const branches = [schema.anyOf, schema.oneOf].find(Array.isArray);
  if (branches) return fc.oneof(...branches.filter(isObject).map((branch) => valid(branch, depth)));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const types = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null') : [schema.type];
  switch (types[0]) {
    case 'string': {
      if (schema.format === 'email') return fc.constantFrom('ada@example.com', 'o.haddad@mail.example.org');
      if (schema.format === 'uri')
        return fc.constantFrom('https://hooks.example.com/a', 'http://127.0.0.1:9/x');
      if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern));
      const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
      const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Math.max(minLength, 12);
      // Mostly plausible words (so valid creates get through), sometimes any string.
      const samples = ['Ada', 'Elm Court', 'Texas', 'Illinois', '62701', 'x'].filter(
        (text) => text.length >= minLength && text.length <= maxLength,
      );
      const any = fc.string({ minLength, maxLength });
      if (samples.length === 0) return any;
      return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...samples) }, { weight: 1, arbitrary: any });
    }
    case 'integer':
    case 'number': {
      const min =
        typeof schema.minimum === 'number'
          ? schema.minimum
          : typeof schema.exclusiveMinimum === 'number'
            ? schema.exclusiveMinimum + 1
            : 0;
      const max =
        typeof schema.maximum === 'number'
          ? schema.maximum
          : typeof schema.exclusiveMaximum === 'number'
            ? schema.exclusiveMaximum - 1
            : 5_000;
      return fc.integer({ min: Math.ceil(min), max: Math.floor(Math.min(max, 2 ** 31)) });
    }
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const item = isObject(schema.items) && depth < 10 ? valid(schema.items, depth + 1) : fc.constant('x');
      return fc.array(item, { minLength, maxLength: Math.max(minLength, 3) });
    }
    default: {
      const properties = isObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required)
        ? schema.required.filter((k) => typeof k === 'string')
        : [];
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, property] of Object.entries(properties))
        if (isObject(property) && depth < 10) shape[key] = valid(property, depth + 1);
      return fc.record(shape, { requiredKeys: required.filter((key) => key in shape) });
    }
  }
}

/** The paths inside a value where a mutation can land (the value itself included). */
function spots(value: unknown, path: Array<string | number> = []): Array<string | number>[] {
  const here = [path];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, i) => spots(item, [...path, i]))];
  if (isObject(value)) return [...here, ...Object.entries(value).flatMap(([k, v]) => spots(v, [...path, k]))];
  return here;
}

/** The part of `value` at `path`, if there is one. */
function at(value: unknown, path: Array<string | number>): unknown {
  let target = value;
  for (const part of path) {
    if (Array.isArray(target) && typeof part === 'number') target = target[part];
    else if (isObject(target) && typeof part === 'string') target = target[part];
    else return undefined;
  }
  return target;
}

function setAt(value: unknown, path: Array<string | number>, change: (target: unknown) => unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return change(value);
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? setAt(item, rest, change) : item));
  if (isObject(value) && typeof head === 'string')
    return { ...value, [head]: setAt(value[head], rest, change) };
  return value;
}

const camel = (key: string) => key.replace(/_([a-z])/g, (_all, c: string) => c.toUpperCase());

/** A mutation of a valid body: what it does, and how. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('null' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('wrong-type' as const),
    at: fc.nat(),
    value: fc.constantFrom<unknown>(42, 'text', true, [], {}),
  }),
  fc.record({
    kind: fc.constant('unknown-key' as const),
    at: fc.nat(),
    key: fc.constantFrom('correlationId', 'firstName', 'zip', 'extra', 'monthlyRent'),
  }),
  fc.record({ kind: fc.constant('camel-key' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('drop-key' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('enum-miss' as const),
    at: fc.nat(),
    value: fc.constantFrom('payroll', 'PENDING', 'bank_account', ''),
  }),
);

/** One drawn mutation. */
interface Mutation {
  kind: string;
  at: number;
  value?: unknown;
  key?: string;
}

function mutate(body: unknown, change: Mutation): unknown {
  const all = spots(body);
  const objects = all.filter((path) => isObject(at(body, path)));
  const pick = <T>(list: T[]): T | undefined => list[change.at % Math.max(list.length, 1)];
  switch (change.kind) {
    case 'null':
      return setAt(body, pick(all.filter((p) => p.length > 0)) ?? [], () => null);
    case 'wrong-type':
    case 'enum-miss':
      return setAt(body, pick(all.filter((p) => p.length > 0)) ?? [], () => change.value);
    case 'unknown-key':
      return setAt(body, pick(objects) ?? [], (target) =>
        isObject(target) ? { ...target, [change.key ?? 'x']: 1 } : target,
      );
    case 'camel-key':
      return setAt(body, pick(objects) ?? [], (target) => {
        if (!isObject(target)) return target;
        const key = Object.keys(target).find((k) => k.includes('_'));
        if (key === undefined) return { ...target, unknownKey: 1 };
        const { [key]: moved, ...rest } = target;
        return { ...rest, [camel(key)]: moved };
      });
    default:
      return setAt(body, pick(objects) ?? [], (target) => {
        if (!isObject(target)) return target;
        const keys = Object.keys(target);
        const drop = keys[change.at % Math.max(keys.length, 1)];
        if (drop === undefined) return target;
        const { [drop]: _dropped, ...rest } = target;
        return rest;
      });
  }
}

/** One generated request. */
interface Generated {
  operation: Operation;
  method: string;
  path: string;
  query: string;
  /** Undefined: no body; otherwise the raw text sent. */
  body: string | undefined;
  contentType: string | undefined;
  auth: 'valid' | 'none' | 'garbage';
  /** Why the generator meant it to be refused by the document, if it did (queries, methods, content types). */
  invalidBy: string | undefined;
  /** The parsed body, for the independent ajv judgement. */
  parsed: unknown;
}

let ids: { groups: string[]; reports: string[]; screenings: string[] } = {
  groups: [],
  reports: [],
  screenings: [],
};

function pathFor(template: string, choice: number, garbage: boolean): string {
  return template.replace(/\{(\w+)\}/g, (_all, name: string) => {
    if (garbage) return ['missing', '00000000-0000-4000-8000-000000000000', '%20', 'a.b'][choice % 4] ?? 'x';
    const pool = name === 'reportId' ? ids.reports : name === 'groupId' ? ids.groups : ids.screenings;
    return pool[choice % Math.max(pool.length, 1)] ?? 'missing';
  });
}

const queryValue = fc.oneof(
  { weight: 3, arbitrary: fc.record({ valid: fc.constant(true), page: fc.integer({ min: 1, max: 4 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({ valid: fc.constant(false), page: fc.constantFrom<unknown>(0, -1, 'abc', 1.5) }),
  },
);

function generator(operation: Operation): fc.Arbitrary<Generated> {
  const bodyArb = operation.body ? valid(operation.body) : fc.constant(undefined);
  return fc
    .record({
      body: bodyArb,
      mutate: fc.option(mutation, { freq: 2 }),
      encoding: fc.constantFrom(
        'json',
        'json',
        'json',
        'json',
        'json',
        'json',
        'text/plain',
        'none',
        'malformed',
      ),
      method: fc.oneof(
        { weight: 12, arbitrary: fc.constant(operation.method) },
        { weight: 1, arbitrary: fc.constantFrom('PUT', 'DELETE', 'PATCH') },
      ),
      auth: fc.constantFrom<Generated['auth']>(
        'valid',
        'valid',
        'valid',
        'valid',
        'valid',
        'valid',
        'none',
        'garbage',
      ),
      idChoice: fc.nat(),
      garbageId: fc.nat(5).map((n) => n === 0),
      page: fc.option(queryValue, { freq: 2 }),
      statuses: fc.option(
        fc.record({
          values: fc.array(fc.constantFrom('not_started', 'in_progress', 'completed', 'pending', 'expired'), {
            minLength: 1,
            maxLength: 3,
          }),
          repeated: fc.boolean(),
        }),
      ),
      search: fc.option(fc.constantFrom('ada', 'Elm', 'nobody', '')),
      createdAfter: fc.option(
        fc.oneof(fc.integer({ min: 0, max: 2_000_000_000 }).map(String), fc.constant('yesterday')),
      ),
    })
    .map((draw) => {
      const params = new Set(operation.parameters.map((p) => String(p.name)));
      const query = new URLSearchParams();
      let invalidBy: string | undefined;
      if (draw.page && params.has('page')) {
        query.set('page', String(draw.page.page));
        if (!draw.page.valid) invalidBy = 'page';
      }
      if (draw.statuses && params.has('statuses')) {
        if (draw.statuses.repeated) for (const value of draw.statuses.values) query.append('statuses', value);
        else query.set('statuses', draw.statuses.values.join(','));
      }
      if (draw.search !== null && params.has('search')) query.set('search', draw.search);
      if (draw.createdAfter !== null && params.has('created_after')) {
        query.set('created_after', draw.createdAfter);
        if (draw.createdAfter === 'yesterday') invalidBy = 'created_after';
      }
      // The auth exchange with a valid draw uses the mock's credentials, so some exchanges succeed.
      const drawn =
        operation.template === '/api/v1/tenants/auth' && draw.auth === 'valid'
          ? { client_id: mock.clientId, secret_key: mock.secretKey }
          : draw.body;
      const parsed = drawn !== undefined && draw.mutate ? mutate(drawn, draw.mutate) : drawn;
      let body: string | undefined;
      let contentType: string | undefined;
      if (operation.body) {
        body = JSON.stringify(parsed);
        contentType = 'application/json';
        if (draw.encoding === 'text/plain') contentType = 'text/plain';
        if (draw.encoding === 'none') contentType = undefined;
        if (draw.encoding === 'malformed') body = `${body.slice(0, Math.floor(body.length / 2))}{"`;
        if (draw.encoding !== 'json') invalidBy = `encoding ${draw.encoding}`;
      }
      if (draw.method !== operation.method) invalidBy = `method ${draw.method}`;
      return {
        operation,
        method: draw.method,
        path: pathFor(operation.template, draw.idChoice, draw.garbageId),
        query: query.toString(),
        body,
        contentType,
        auth: draw.auth,
        invalidBy,
        parsed,
      };
    });
}

let mock: MockServer;
let token = '';
beforeAll(async () => {
  mock = await createMockServer({ strict: true, seed: 5, now: DEFAULT_START_TIME, pageSize: 5 });
  const client = mock.client();
  try {
    const property = {
      name: 'Elm',
      street_address: '1 Elm St',
      city: 'Austin',
      state: 'Texas',
      zip_code: '73301',
    };
    for (let i = 0; i < 3; i++) {
      const group = await client.applicantGroups.create({
        applicants: [{ first_name: 'Ada', last_name: `N${i}`, email: `ada${i}@example.com` }],
        property,
        decision_maker_display_name: 'Elm LLC',
        monthly_rent: 1500,
      });
      ids.groups.push(group.id);
      if (i > 0) for (const applicant of group.applicants) mock.applicants.complete(applicant.id);
      const screening = await client.screeningGroups.create({
        applicants: [
          {
            applicant_first_name: 'Sam',
            applicant_last_name: `S${i}`,
            applicant_email: `sam${i}@example.com`,
          },
        ],
        property,
        is_decision_maker_paying: i % 2 === 0,
        decision_maker_display_name: 'Elm LLC',
        monthly_rent: 1500,
      });
      ids.screenings.push(screening.id);
      if (i > 0) for (const member of screening.screenings ?? []) mock.applicants.complete(member.id);
    }
    ids.reports = mock.reports.all().map((report) => report.id);
    const last = ids.reports.at(-1);
    if (last) mock.reports.expire(last);
    token = await client.auth.getToken();
  } finally {
    await client.close();
  }
});
afterAll(async () => {
  await mock?.close();
  ids = { groups: [], reports: [], screenings: [] };
});

describe('a seeded fuzz of the strict mock from openapi.json', () => {
  it(`${REQUESTS} requests: no 5xx, no undocumented status, no answer the document refuses, no 2xx for a refused request`, async () => {
    const all = fc.oneof(...OPERATIONS.map(generator));
    const generated = fc.sample(all, { seed: SEED, numRuns: REQUESTS });
    const problems: string[] = [];
    const statuses = new Map<string, number>();
    for (const item of generated) {
      const headers: Record<string, string> = {};
      if (item.contentType) headers['content-type'] = item.contentType;
      const isAuth = item.operation.template === '/api/v1/tenants/auth';
      if (!isAuth && item.auth === 'valid') headers.authorization = `Bearer ${token}`;
      if (!isAuth && item.auth === 'garbage') headers.authorization = 'Bearer garbage';
      const url = `${mock.url}${item.path}${item.query ? `?${item.query}` : ''}`;
      const response = await request(url, { method: item.method, headers, body: item.body });
      const text = await response.body.text();
      const status = response.statusCode;
      const contentType = String(response.headers['content-type'] ?? '');
      const what = `${item.method} ${item.path}?${item.query} ${item.body ?? ''} -> ${status} ${text.slice(0, 200)}`;
      const key = `${item.method === item.operation.method ? `${item.method} ${item.operation.template}` : 'wrong method'} ${status}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      if (status >= 500) problems.push(`5xx: ${what}`);
      let parsed: unknown;
      try {
        parsed = contentType.includes('application/json') && text !== '' ? JSON.parse(text) : undefined;
      } catch {
        problems.push(`unparsable JSON: ${what}`);
      }
      if (item.method !== item.operation.method) {
        // The Allow header names exactly the methods the document has for the path.
        const methods = (item: unknown) =>
          isObject(item) ? Object.keys(item).map((m) => m.toUpperCase()) : [];
        const expected = methods(paths[item.operation.template]).sort().join(', ');
        const allow = String(response.headers.allow ?? '')
          .split(/,\s*/)
          .sort()
          .join(', ');
        if (status !== 405 || allow !== expected)
          problems.push(`wrong method not 405 with Allow: ${expected}: ${what}`);
        problems.push(...contractProblems(item.method, item.path, status, contentType, parsed));
        continue;
      }
      if (!listsStatus(item.operation.responses, status))
        problems.push(`undocumented status ${item.method} ${item.operation.template} ${status} | ${what}`);
      problems.push(
        ...contractProblems(item.method, item.path, status, contentType, parsed).map((p) => `${p}: ${what}`),
      );
      const refused =
        item.invalidBy !== undefined ||
        (item.operation.body !== undefined && !bodyIsValid(item.operation, item.parsed));
      if (refused && status < 300)
        problems.push(`2xx for a request the document refuses (${item.invalidBy ?? 'body'}): ${what}`);
    }
    const succeeded = [...statuses].filter(([key]) => / 20\d$/.test(key)).reduce((sum, [, n]) => sum + n, 0);
    console.log(
      `fuzz: ${generated.length} requests, ${succeeded} 2xx; by route and status:\n${[...statuses]
        .sort()
        .map(([key, n]) => `  ${key}: ${n}`)
        .join('\n')}`,
    );
    const kinds = new Map<string, number>();
    for (const problem of problems) {
      const kind = problem.startsWith('undocumented status')
        ? (problem.split(' | ')[0] ?? '')
        : problem.slice(0, 80);
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    if (problems.length > 0)
      console.log(
        `fuzz problems by kind:\n${[...kinds]
          .sort()
          .map(([k, n]) => `  ${k}: ${n}`)
          .join('\n')}`,
      );
    expect(problems.slice(0, 20)).toEqual([]);
    expect(problems.length).toBe(0);
    // The fuzz is not all refusals: valid requests of every operation get through.
    expect(succeeded).toBeGreaterThan(generated.length / 10);
  });
});

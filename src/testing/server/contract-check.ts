/**
 * The strict mock's reading of request bodies: the JSON Schema of each operation's request body in
 * the API's OpenAPI document (`openapi.json`, the file the package ships), checked field by field.
 * The document is the contract, so the strict mock refuses what it refuses and nothing else the
 * mock's own validation (validation.ts) does not: keys it does not name (with a did-you-mean),
 * values outside an enum, `null` where the schema has no `null`, wrong types and the keywords the
 * document uses (lengths, patterns, `not`, bounds, `format: uri`).
 *
 * Only the subset of JSON Schema the document is generated with is read; an object that lists its
 * `properties` is closed unless it says otherwise (`additionalProperties` other than `false`).
 */
import openApiDocument from '../../../openapi.json' with { type: 'json' };
import { formatPath, suggestValue } from '../../internal.js';
import type { FieldError } from './responses.js';

/** A JSON Schema (or any JSON object of the document), as parsed JSON. */
type Json = { readonly [key: string]: unknown };

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const document: unknown = openApiDocument;

// `#/components/schemas/Error` to the schema it names.
function resolve(schema: Json): Json {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 16; hops++) {
    let target: unknown = document;
    for (const part of current.$ref.replace(/^#\//, '').split('/'))
      target = isObject(target) ? target[part] : undefined;
    if (!isObject(target)) return {};
    current = target;
  }
  return current;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typesOf(schema: Json): string[] | undefined {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === 'string');
  return undefined;
}

function typeMatches(value: unknown, types: readonly string[]): boolean {
  const actual = typeOf(value);
  return types.includes(actual) || (actual === 'integer' && types.includes('number'));
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function name(path: readonly PropertyKey[]): string {
  return formatPath(path) || '(body)';
}

function patternOf(source: string): RegExp | undefined {
  try {
    return new RegExp(source, 'u');
  } catch {
    try {
      return new RegExp(source);
    } catch {
      return undefined;
    }
  }
}

// The schema's own words on what it takes, when it has them.
function described(schema: Json): string {
  return typeof schema.description === 'string' ? ` (${schema.description.replace(/\.$/, '')})` : '';
}

function numberProblems(schema: Json, value: number, field: string): string[] {
  const problems: string[] = [];
  if (typeof schema.minimum === 'number' && value < schema.minimum)
    problems.push(`${field} must be at least ${schema.minimum}`);
  if (typeof schema.maximum === 'number' && value > schema.maximum)
    problems.push(`${field} must be at most ${schema.maximum}`);
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum)
    problems.push(`${field} must be greater than ${schema.exclusiveMinimum}`);
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum)
    problems.push(`${field} must be less than ${schema.exclusiveMaximum}`);
  if (typeof schema.multipleOf === 'number' && !Number.isInteger(value / schema.multipleOf))
    problems.push(`${field} must be a multiple of ${schema.multipleOf}`);
  return problems;
}

function stringProblems(schema: Json, value: string, field: string): string[] {
  const problems: string[] = [];
  const length = [...value].length;
  if (typeof schema.minLength === 'number' && length < schema.minLength)
    problems.push(`${field} must be at least ${schema.minLength} characters long`);
  if (typeof schema.maxLength === 'number' && length > schema.maxLength)
    problems.push(`${field} must be at most ${schema.maxLength} characters long`);
  const pattern = typeof schema.pattern === 'string' ? patternOf(schema.pattern) : undefined;
  if (pattern && !pattern.test(value))
    problems.push(`${field} does not have the form the API expects${described(schema)}`);
  if (schema.format === 'uri' && !URL.canParse(value)) problems.push(`${field} must be an absolute URI`);
  return problems;
}

function objectProblems(schema: Json, value: Json, path: PropertyKey[]): FieldError[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const known = Object.keys(properties);
  const problems: FieldError[] = [];
  for (const key of Array.isArray(schema.required) ? schema.required : []) {
    if (typeof key === 'string' && !(key in value))
      problems.push({ field: name([...path, key]), message: `${key} is required` });
  }
  const closed =
    schema.additionalProperties === false ||
    (isObject(schema.properties) && !('additionalProperties' in schema));
  for (const [key, item] of Object.entries(value)) {
    const property = properties[key];
    if (isObject(property)) problems.push(...check(property, item, [...path, key]));
    else if (closed) {
      const hint = suggestValue(key, known);
      problems.push({
        field: name([...path, key]),
        message: `${key} is not a field of this request${hint === undefined ? '' : `: did you mean ${hint}?`}`,
      });
    } else if (isObject(schema.additionalProperties))
      problems.push(...check(schema.additionalProperties, item, [...path, key]));
  }
  return problems;
}

function arrayProblems(schema: Json, value: readonly unknown[], path: PropertyKey[]): FieldError[] {
  const field = name(path);
  const problems: FieldError[] = [];
  if (typeof schema.minItems === 'number' && value.length < schema.minItems)
    problems.push({ field, message: `${field} must list at least ${schema.minItems} item(s)` });
  if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
    problems.push({ field, message: `${field} must list at most ${schema.maxItems} item(s)` });
  if (isObject(schema.items)) {
    const items = schema.items;
    value.forEach((item, index) => {
      problems.push(...check(items, item, [...path, index]));
    });
  }
  return problems;
}

// anyOf / oneOf: the value passes if one branch takes it; otherwise the problems of the branch
// whose type fits (the one the caller most likely meant), or of the first.
function branchProblems(branches: readonly unknown[], value: unknown, path: PropertyKey[]): FieldError[] {
  const results = branches.filter(isObject).map((branch) => check(branch, value, path));
  if (results.length === 0 || results.some((problems) => problems.length === 0)) return [];
  const fitting = branches
    .filter(isObject)
    .findIndex((branch) => typesOf(resolve(branch))?.some((t) => typeMatches(value, [t])) ?? false);
  return results[fitting === -1 ? 0 : fitting] ?? [];
}

/**
 * The problems of `value` against `schema` (a schema of the OpenAPI document), one per invalid
 * field, named by its path (`applicants[0].email`); `[]` when the value passes.
 */
export function check(raw: Json, value: unknown, path: PropertyKey[] = []): FieldError[] {
  const schema = resolve(raw);
  const field = name(path);
  const branches = Array.isArray(schema.anyOf)
    ? schema.anyOf
    : Array.isArray(schema.oneOf)
      ? schema.oneOf
      : [];
  if (branches.length > 0) {
    const problems = branchProblems(branches, value, path);
    if (problems.length > 0) return problems;
  }
  const types = typesOf(schema);
  if (types && !typeMatches(value, types)) {
    const message =
      value === null
        ? `${field} must not be null`
        : `${field} must be ${types
            .filter((t) => t !== 'null')
            .map(article)
            .join(' or ')}`;
    return [{ field, message }];
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) {
    const allowed = schema.enum.filter((item): item is string => typeof item === 'string');
    const hint = typeof value === 'string' ? suggestValue(value, allowed) : undefined;
    const message = `${field} must be one of ${schema.enum.map((item) => JSON.stringify(item)).join(', ')}`;
    return [{ field, message: hint === undefined ? message : `${message}: did you mean ${hint}?` }];
  }
  if (isObject(schema.not) && check(schema.not, value, path).length === 0)
    return [{ field, message: `${field} has a form the API refuses${described(schema)}` }];
  if ('const' in schema && schema.const !== value)
    return [{ field, message: `${field} must be ${JSON.stringify(schema.const)}` }];
  const message = (text: string): FieldError => ({ field, message: text });
  if (typeof value === 'number') return numberProblems(schema, value, field).map(message);
  if (typeof value === 'string') return stringProblems(schema, value, field).map(message);
  if (Array.isArray(value)) return arrayProblems(schema, value, path);
  if (isObject(value)) return objectProblems(schema, value, path);
  return [];
}

/** The JSON Schema of `operationId`'s JSON request body in the document, if it has one. */
export function requestBodySchema(operationId: string): Json | undefined {
  const paths = isObject(document) && isObject(document.paths) ? document.paths : {};
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue;
    for (const operation of Object.values(item)) {
      if (!isObject(operation) || operation.operationId !== operationId) continue;
      const body = isObject(operation.requestBody) ? resolve(operation.requestBody) : undefined;
      const content = body && isObject(body.content) ? body.content : undefined;
      const json = content && isObject(content['application/json']) ? content['application/json'] : undefined;
      return json && isObject(json.schema) ? json.schema : undefined;
    }
  }
  return undefined;
}

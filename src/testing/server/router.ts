/**
 * A minimal router: method plus a path pattern (`/api/v1/reports/:id`, `:name` for one segment,
 * a final `*` for the rest). The mock needs nothing more, and owning it keeps the core free of
 * any HTTP framework.
 */

/** Path parameters of a matched route. */
export type RouteParams = Readonly<Record<string, string>>;

/** One route: method (`*` for any), pattern, and the value the caller attaches. */
export interface RouteDefinition<T> {
  method: string;
  pattern: string;
  target: T;
}

/** A route that matched a request. */
export interface RouteMatch<T> {
  /** Route key for stats, e.g. `GET /api/v1/reports/:id`. */
  key: string;
  params: RouteParams;
  target: T;
}

function matchPattern(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i] ?? '';
    if (part === '*') return params;
    const value = got[i];
    if (value === undefined) return undefined;
    if (part.startsWith(':')) {
      if (value === '') return undefined;
      params[part.slice(1)] = decodeURIComponent(value);
    } else if (part !== value) return undefined;
  }
  return got.length === want.length ? params : undefined;
}

function matches(pattern: string, path: string): Record<string, string> | undefined {
  try {
    return matchPattern(pattern, path);
  } catch {
    // A malformed percent escape matches no route.
    return undefined;
  }
}

/**
 * The methods `routes` serve on `path` (routes for any method, `*`, left out): the `Allow` of a
 * 405, empty for a path no route names.
 */
export function allowedMethods<T>(routes: readonly RouteDefinition<T>[], path: string): string[] {
  const methods = routes
    .filter((route) => route.method !== '*' && matches(route.pattern, path) !== undefined)
    .map((route) => route.method);
  return [...new Set(methods)];
}

/** Builds a matcher over `routes`, tried in order. */
export function createRouter<T>(
  routes: readonly RouteDefinition<T>[],
): (method: string, path: string) => RouteMatch<T> | undefined {
  return (method, path) => {
    const upper = method.toUpperCase();
    for (const route of routes) {
      if (route.method !== '*' && route.method !== upper) continue;
      const params = matches(route.pattern, path);
      if (params) return { key: `${route.method} ${route.pattern}`, params, target: route.target };
    }
    return undefined;
  };
}
